import { endpointLabel, type EndpointSettings } from '../../../shared/endpoints';
import { AppError, ErrorCode } from '../../../shared/errors';
import { envVariableOf } from '../../../shared/keyStorage';
import type { LlmEndpoint } from './client';

/**
 * API keys by reference: an endpoint's setting names its key (`keyRef`), the host says where keys are kept. The
 * CLI reads the environment variable of that name; the app asks the operating system's keychain through Electron's
 * safeStorage. The engine only ever holds the key in memory, for the Authorization header.
 */
export type KeySource = (keyRef: string) => string | undefined;

/** The client's view of an endpoint setting, its key resolved; a key that cannot be found is an error that says where to put it. */
export function resolveEndpoint(endpoint: EndpointSettings, keys: KeySource | undefined): LlmEndpoint {
  let apiKey: string | undefined;
  if (endpoint.keyRef) {
    apiKey = keys?.(endpoint.keyRef);
    if (!apiKey) {
      const variable = envVariableOf(endpoint.keyRef);
      throw new AppError(
        ErrorCode.ENDPOINT_INVALID,
        variable
          ? `No API key for ${endpointLabel(endpoint)}: the environment variable ${variable} it is read from is not set for the app. Start the app with ${variable} exported, or choose another way in Settings › Inference.`
          : `No API key for ${endpointLabel(endpoint)}: its key "${endpoint.keyRef}" is not set. On the command line, export the environment variable ${endpoint.keyRef}; in the app, enter the key again in Settings › Inference.`,
        { endpoint: endpoint.url, keyRef: endpoint.keyRef },
      );
    }
  }
  return {
    kind: endpoint.kind,
    url: endpoint.url,
    ...(apiKey ? { apiKey } : {}),
    ...(endpoint.contextTokens ? { contextTokens: endpoint.contextTokens } : {}),
  };
}
