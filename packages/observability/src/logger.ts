import cluster from 'node:cluster';
import { Writable } from 'node:stream';
import { format as formatText } from 'node:util';
import winston from 'winston';
import Transport from 'winston-transport';

export type Logger = winston.Logger;

export interface LoggerOptions {
  /** LOG_LEVEL: error, warn, info (default), debug */
  level?: string;
  /** LOG_FORMAT: json (default; one object a line, for collectors) or pretty (for a terminal) */
  format?: string;
  /** where lines go; stdout unless a test gives its own stream */
  stream?: NodeJS.WritableStream;
}

const pretty = winston.format.combine(
  winston.format.timestamp({ format: 'HH:mm:ss.SSS' }),
  winston.format.colorize(),
  winston.format.printf(({ level, message, timestamp, ...rest }) => {
    const fields = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
    return `${timestamp} ${level} ${message}${fields}`;
  }),
);

const MESSAGE = Symbol.for('message');
const safeJson = winston.format.json();

/**
 * One JSON object a line, stamped. JSON.stringify directly: logform's json() runs a cycle-safe stringifier on every
 * line, about twice the cost for the request line each call writes; it stays the fallback for what JSON.stringify
 * refuses (a cycle, a BigInt).
 */
const jsonLine = winston.format((info) => {
  info.timestamp = new Date().toISOString();
  try {
    (info as Record<symbol, unknown>)[MESSAGE] = JSON.stringify(info);
    return info;
  } catch {
    return safeJson.transform(info, safeJson.options);
  }
});

/**
 * stdout for log lines, shared by every logger of the process so their lines keep their order: the lines written in
 * one event-loop turn go out in one write. A write to a pipe is a synchronous syscall on Linux, and under load one turn
 * ends many requests, each with its line. What is pending when the process exits is written then.
 */
class BatchedStdout extends Writable {
  private pending: string[] = [];
  private scheduled = false;

  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.pending.push(String(chunk));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    done();
  }

  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    process.stdout.write(text);
  }
}

let stdoutLines: BatchedStdout | undefined;
function sharedStdout(): BatchedStdout {
  if (!stdoutLines) {
    const out = (stdoutLines = new BatchedStdout());
    process.on('exit', () => out.flush());
  }
  return stdoutLines;
}

/**
 * Writes each formatted line to its stream. winston's own Stream transport also queues an immediate per line (to
 * emit `logged`, which nothing here listens for): one per request for the request line.
 */
class LineTransport extends Transport {
  constructor(private readonly out: NodeJS.WritableStream) {
    super();
  }

  override log(info: Record<string | symbol, unknown>, next: () => void): void {
    this.out.write(`${String(info[MESSAGE])}\n`);
    next();
  }
}

/** One JSON object a line. Callers log ids, counts and timings: never keys, prompts or media bytes. */
export function createLogger(level?: string, opts: Omit<LoggerOptions, 'level'> = {}): Logger {
  const fmt = opts.format ?? 'json';
  return winston.createLogger({
    level: level ?? 'info',
    format: fmt === 'pretty' ? pretty : jsonLine(),
    transports: [new LineTransport(opts.stream ?? sharedStdout())],
    // WORKERS=N: the workers share stdout, so each line says which process wrote it
    defaultMeta: cluster.isWorker ? { pid: process.pid } : undefined,
  });
}

/**
 * For the lines an operator needs whatever LOG_LEVEL says (the address, the demo key): a logger of the same
 * format that is never filtered below info.
 */
export function createAnnouncer(level = 'info', opts: Omit<LoggerOptions, 'level'> = {}): Logger {
  const npm = winston.config.npm.levels;
  return createLogger((npm[level] ?? 0) > npm.info ? level : 'info', opts);
}

/**
 * Libraries that print with console.* (knex warnings, driver notices) would break the one-JSON-object-a-line
 * promise; in the server process they go through the logger instead.
 */
export function routeConsoleToLogger(logger: Logger): void {
  const to =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) =>
      logger.log(level, formatText(...args));
  console.log = to('info');
  console.info = to('info');
  console.debug = to('debug');
  console.warn = to('warn');
  console.error = to('error');
}
