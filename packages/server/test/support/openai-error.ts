import type request from 'supertest';

/** An OpenAI-shaped error answer: the four string fields, with the code and field at fault when given. */
export function expectOpenAiError(res: request.Response, status: number, code?: string, param?: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({
    error: { message: expect.any(String), type: expect.any(String), param: expect.any(String), code: expect.any(String) },
  });
  if (code) expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}
