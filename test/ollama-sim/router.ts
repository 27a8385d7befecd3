/** The HTTP routes of the Ollama surface: the metadata endpoints here, the completion and embedding handlers by path. */
import type http from 'node:http';
import { SIMULATOR_FIELD } from '../../shared/simulator';
import { handleCompletion } from './completion';
import { handleEmbed } from './embed';
import { ollamaErrors } from './errors';
import { details, findModel, showModel } from './models';
import { sendError, sendJson } from './protocol';
import { expireRunners, expiresIso } from './runners';
import { ReqCtx, type SimState } from './state';
import { SIM_DESCRIPTION } from './types';

export async function route(state: SimState, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { models, startedAt } = state;
  state.counters.requests++;
  const ctx = new ReqCtx(res);
  res.on('close', () => {
    if (!res.writableFinished && !ctx.aborted) {
      ctx.aborted = true;
      ctx.ac.abort();
    }
  });
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const method = req.method ?? 'GET';

  if ((method === 'GET' || method === 'HEAD') && path === '/') {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Ollama is running');
    return;
  }
  if ((method === 'GET' || method === 'HEAD') && path === '/api/version')
    return sendJson(res, 200, { version: state.version, [SIMULATOR_FIELD]: SIM_DESCRIPTION.ollama });
  if ((method === 'GET' || method === 'HEAD') && path === '/api/tags') {
    return sendJson(res, 200, {
      models: models.map((m) => ({ name: m.name, model: m.name, modified_at: startedAt, size: m.sizeBytes, digest: m.digest, details: details(m) })),
    });
  }
  if ((method === 'GET' || method === 'HEAD') && path === '/api/ps') {
    expireRunners(state);
    return sendJson(res, 200, {
      models: [...state.runners.values()].map((r) => {
        const o: Record<string, unknown> = {
          name: r.model.name,
          model: r.model.name,
          size: Math.round(r.memory),
          digest: r.model.digest,
          details: details(r.model),
          expires_at: expiresIso(state, r),
          size_vram: Math.round(r.memory),
        };
        if (state.psHasContextLength) o.context_length = r.numCtx;
        return o;
      }),
    });
  }
  const posts = ['/api/chat', '/api/generate', '/api/embed', '/api/show'];
  if (method !== 'POST' || !posts.includes(path)) {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('404 page not found');
    return;
  }
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return sendError(res, 400, ollamaErrors.missingBody);
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return sendError(res, 400, 'json: cannot unmarshal into Go value of type api.Request');
    }
    body = parsed as Record<string, unknown>;
  } catch {
    return sendError(res, 400, `invalid character looking for beginning of value`);
  }
  switch (path) {
    case '/api/chat':
      return handleCompletion(state, 'chat', body, ctx);
    case '/api/generate':
      return handleCompletion(state, 'generate', body, ctx);
    case '/api/embed':
      return handleEmbed(state, body, ctx);
    case '/api/show': {
      const name = typeof body.model === 'string' && body.model !== '' ? body.model : typeof body.name === 'string' ? body.name : '';
      if (name === '') return sendError(res, 400, ollamaErrors.modelRequired);
      const m = findModel(models, name);
      if (!m) return sendError(res, 404, ollamaErrors.notFound(name));
      return sendJson(res, 200, showModel(m, startedAt));
    }
  }
}
