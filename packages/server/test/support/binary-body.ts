import type request from 'supertest';

/** The answer's body as bytes (a Buffer), whatever its content type: supertest would otherwise parse JSON or text. */
export const binaryBody = (r: request.Test): request.Test =>
  r.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
