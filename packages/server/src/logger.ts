import winston from 'winston';

/** JSON lines. Callers log ids, counts and timings: never keys, prompts or media bytes. */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): winston.Logger {
  return winston.createLogger({
    level,
    format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}

export type Logger = winston.Logger;
