/** Ollama's error messages, word for word, so a client's error handling meets what the real server says. */
const GiB = 1024 ** 3;

export const ollamaErrors = {
  missingBody: 'missing request body',
  modelRequired: 'model is required',
  notFound: (m: string) => `model '${m}' not found`,
  noThinking: (m: string) => `${JSON.stringify(m)} does not support thinking`,
  noChat: (m: string) => `${JSON.stringify(m)} does not support chat`,
  noGenerate: (m: string) => `${JSON.stringify(m)} does not support generate`,
  noEmbeddings: (m: string) => `${JSON.stringify(m)} does not support embeddings`,
  optionInt: (k: string) => `option ${JSON.stringify(k)} must be of type integer`,
  optionFloat: (k: string) => `option ${JSON.stringify(k)} must be of type float32`,
  optionBool: (k: string) => `option ${JSON.stringify(k)} must be of type boolean`,
  inputTooLong: 'the input length exceeds the context length',
  oom: (need: number, have: number) => `model requires more system memory (${(need / GiB).toFixed(1)} GiB) than is available (${(have / GiB).toFixed(1)} GiB)`,
  runnerCrash: 'model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details',
  loadTimeout: 'timed out waiting for llama runner to start - progress 0.00 - ',
  busy: 'server busy, please try again.  maximum pending requests exceeded',
  invalidSchema: 'invalid JSON schema in format',
  invalidInput: 'invalid input type',
} as const;
