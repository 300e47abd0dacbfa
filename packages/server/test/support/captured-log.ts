import { Writable } from 'node:stream';
import winston from 'winston';

/** A JSON logger whose lines a test reads back: each line parsed, and the whole text as written. */
export function capturedLog(level = 'info'): { logger: winston.Logger; lines: Array<Record<string, any>>; text(): string } {
  const written: string[] = [];
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      written.push(String(chunk));
      lines.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  const logger = winston.createLogger({
    level,
    format: winston.format.json(),
    transports: [new winston.transports.Stream({ stream: sink })],
  });
  return { logger, lines, text: () => written.join('\n') };
}
