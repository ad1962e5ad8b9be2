import type { ResourceEvent } from './model';

/** A minimal event emitter with the shape of `vscode.EventEmitter`, for layers that do not import `vscode`. */
export class Emitter<T> {
  private listeners: ((e: T) => unknown)[] = [];

  readonly event: ResourceEvent<T> = (listener) => {
    this.listeners.push(listener);
    return {
      dispose: () => {
        this.listeners = this.listeners.filter((l) => l !== listener);
      },
    };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // One failing listener must not keep the others from hearing about the change.
      }
    }
  }

  dispose(): void {
    this.listeners = [];
  }
}
