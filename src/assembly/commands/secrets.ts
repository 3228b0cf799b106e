import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Runner } from '../../cli/runner.ts';
import type { Platform } from '../../platform/platform.ts';
import { createSecretBox } from '../../platform/secrets/box.ts';
import { createSecretStore } from '../../platform/secrets/service.ts';
import { parseSecretKey } from '../../secret-key.ts';

/**
 * Encrypts the secrets an earlier version stored in plain text; run after the migrations by every
 * process and command (see createSecretStore's sealPlain). Secrets under another key are reported:
 * they would fail where they are used.
 */
export async function sealStoredSecrets(platform: Platform): Promise<void> {
  const { encrypted, otherKeys } = await createSecretStore(platform.database.db, platform.secrets).sealPlain();
  if (encrypted > 0) platform.logger.info({ encrypted, keyId: platform.secrets.keyId }, 'stored secrets encrypted');
  const others = Object.values(otherKeys).reduce((sum, n) => sum + n, 0);
  if (others > 0) {
    platform.logger.warn(
      { keyIds: otherKeys, configuredKeyId: platform.secrets.keyId },
      `${others} stored secret(s) are encrypted under another key than the configured one and will not open: ` +
        'set ACADEMY_SECRET_KEY (or ACADEMY_SECRET_KEY_FILE) to their key, or re-encrypt them with `academy secrets rotate --from-key-file`',
    );
  }
}

export function secretCommands(program: Command, run: Runner): void {
  const secrets = program
    .command('secrets')
    .description('Manage the key that encrypts stored secrets (webhook signing secrets, integration credentials)');

  secrets
    .command('rotate')
    .description(
      "Re-encrypt every stored secret under the configured key (ACADEMY_SECRET_KEY, ACADEMY_SECRET_KEY_FILE or the data directory's key file), " +
        'opening them with the previous key; one transaction, and a re-run changes nothing',
    )
    .requiredOption('--from-key-file <path>', 'a file holding the previous key (32 bytes in base64 or hex)')
    .action((options: { fromKeyFile: string }) =>
      run(
        async ({ platform, out }) => {
          let text: string;
          try {
            text = readFileSync(options.fromKeyFile, 'utf8');
          } catch (error) {
            throw new Error(
              `--from-key-file cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): ${options.fromKeyFile}`,
            );
          }
          const from = parseSecretKey(text);
          if (!from) throw new Error(`--from-key-file must hold 32 bytes in base64 or 64 hex digits: ${options.fromKeyFile}`);
          const outcome = await createSecretStore(platform.database.db, platform.secrets).rotate(createSecretBox(from));
          out.result(
            outcome,
            `Stored secrets are under key ${outcome.key_id}: ${outcome.reencrypted} re-encrypted from key ${from.id}, ` +
              `${outcome.encrypted} encrypted from plain text, ${outcome.unchanged} already under it. ` +
              'Restart every process with the new key; the previous key is no longer needed.',
          );
        },
        // Plain-text values are encrypted by the rotation itself, and the warning about values under
        // another key would only announce what it is about to fix.
        { sealSecrets: false },
      ),
    );
}
