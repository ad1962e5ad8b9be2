/** Identifier helpers: 24-hex ObjectIds (resource IDs) and UUIDv4 (request IDs). */
import { randomBytes, randomUUID } from 'node:crypto';

export const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

let counter = randomBytes(3).readUIntBE(0, 3);
const processPart = randomBytes(5).toString('hex');

/** A new ObjectId in MongoDB layout: 4-byte seconds, 5-byte process value, 3-byte counter. */
export function newObjectId(now: number = Date.now()): string {
  counter = (counter + 1) % 0x1000000;
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0')
    .slice(-8);
  return seconds + processPart + counter.toString(16).padStart(6, '0');
}

export function newRequestId(): string {
  return randomUUID();
}

/** Deterministic generator for seeded sample data (mulberry32). */
export class SeededIds {
  private state: number;
  private seq = 0;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) {
      out += Math.floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    }
    return out.slice(0, length);
  }

  /** ObjectId whose timestamp part is `epochMs`, so IDs look like those of real documents. */
  objectId(epochMs: number): string {
    this.seq += 1;
    const seconds = Math.floor(epochMs / 1000)
      .toString(16)
      .padStart(8, '0');
    return seconds + this.hex(10) + this.seq.toString(16).padStart(6, '0');
  }

  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'[parseInt(h[16] ?? '0', 16) % 4] ?? '8';
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}
