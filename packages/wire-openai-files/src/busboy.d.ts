/** The part of busboy 1.x (no published types installed) the upload parser uses. */
declare module 'busboy' {
  import type { IncomingHttpHeaders } from 'node:http';
  import type { Readable, Writable } from 'node:stream';

  interface Limits {
    fieldSize?: number;
    fields?: number;
    fileSize?: number;
    files?: number;
    parts?: number;
  }
  interface FileInfo {
    filename: string | undefined;
    encoding: string;
    mimeType: string;
  }
  interface FieldInfo {
    nameTruncated: boolean;
    valueTruncated: boolean;
  }
  interface Busboy extends Writable {
    on(event: 'file', listener: (name: string, stream: Readable & { truncated?: boolean }, info: FileInfo) => void): this;
    on(event: 'field', listener: (name: string, value: string, info: FieldInfo) => void): this;
    on(event: 'close' | 'filesLimit' | 'fieldsLimit' | 'partsLimit', listener: () => void): this;
    on(event: 'error', listener: (err: Error) => void): this;
  }
  function busboy(config: { headers: IncomingHttpHeaders; limits?: Limits; defParamCharset?: string }): Busboy;
  export = busboy;
}
