/** The simulator's stock responders: what a model answers when a test does not script the reply. */
import { minimalInstance } from './schema';
import type { Responder } from './types';

/** The default responder: `{}` when `format` is a schema or 'json', else 'OK'. */
export const defaultResponder: Responder = (req) => (hasFormat(req.format) ? '{}' : 'OK');

/** A responder that returns a minimal valid instance of the request's JSON-schema `format`. */
export const schemaResponder: Responder = (req) => {
  if (typeof req.format === 'object' && req.format !== null) return JSON.stringify(minimalInstance(req.format));
  if (req.format === 'json') return '{}';
  return 'OK';
};

function hasFormat(format: unknown): boolean {
  return format === 'json' || (typeof format === 'object' && format !== null);
}
