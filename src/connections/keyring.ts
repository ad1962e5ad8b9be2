import * as vscode from 'vscode';
import { errorMessage } from '../errors';

/** VS Code's own page about keyring problems (Linux without a keyring, locked keychains). */
export const KEYRING_TROUBLESHOOTING_URL =
  'https://code.visualstudio.com/docs/configure/settings-sync#_troubleshooting-keychain-issues';

export type SecretOperation = 'read' | 'store' | 'delete';

/**
 * SecretStorage failed. On Linux this usually means no keyring (gnome-keyring, KWallet) is running or VS Code could
 * not identify it; the message says what to do.
 */
export class SecretStorageError extends Error {
  readonly operation: SecretOperation;
  readonly causeMessage: string;

  constructor(operation: SecretOperation, cause: unknown) {
    const causeMessage = errorMessage(cause);
    super(SecretStorageError.describe(operation, causeMessage));
    this.name = 'SecretStorageError';
    this.operation = operation;
    this.causeMessage = causeMessage;
  }

  private static describe(operation: SecretOperation, causeMessage: string): string {
    const what =
      operation === 'read'
        ? vscode.l10n.t('Could not read the API key secret from the system keyring')
        : operation === 'store'
          ? vscode.l10n.t('Could not save the API key secret in the system keyring')
          : vscode.l10n.t('Could not delete the API key secret from the system keyring');
    const advice =
      process.platform === 'linux'
        ? vscode.l10n.t(
            'On Linux, start a keyring (e.g. gnome-keyring) or start VS Code with --password-store=gnome-libsecret (or --password-store=basic, which stores secrets with weaker protection), for example in "Preferences: Configure Runtime Arguments" (argv.json: "password-store").',
          )
        : vscode.l10n.t('Unlock the system keychain and try again.');
    return `${what}: ${causeMessage}. ${advice}`;
  }
}

/** Shows a keyring failure with a link to VS Code's troubleshooting page. */
export async function showSecretStorageError(error: SecretStorageError): Promise<void> {
  const troubleshoot = vscode.l10n.t('Troubleshooting');
  const choice = await vscode.window.showErrorMessage(error.message, troubleshoot);
  if (choice === troubleshoot) {
    await vscode.env.openExternal(vscode.Uri.parse(KEYRING_TROUBLESHOOTING_URL));
  }
}
