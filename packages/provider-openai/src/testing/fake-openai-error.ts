/** OpenAI's error shape, as its fakes answer a refused request; a 401 carries `invalid_api_key`. */
export const openAiErrorBody = (status: number, message: string, param: string | null = null) => ({
  error: { message, type: 'invalid_request_error', param, code: status === 401 ? 'invalid_api_key' : null },
});
