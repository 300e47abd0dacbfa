import type { Request } from 'express';
import type busboy from 'busboy';
import { fileTooLarge, GatewayError, invalid, type Files, type StoredFile } from '@gateway/core';
import type { UploadFields } from './files.services';

/** Room in a declared Content-Length for the form around the file: part headers, boundaries, the few text fields. */
const FORM_ROOM = 64 * 1024;
const FIELD_NAMES = ['purpose', 'expires_after[anchor]', 'expires_after[seconds]'];

const malformed = () => invalid('invalid_multipart', 'The request body is not a well-formed multipart/form-data form.');
const noFile = () => invalid('missing_required_parameter', 'Send the file as the multipart field "file".', 'file');

/** The text fields as the `openai` SDK sends them (`expires_after[anchor]`, `expires_after[seconds]`), unchecked beyond their form. */
export function decodeUploadFields(raw: Readonly<Record<string, string>>): UploadFields {
  const unknown = Object.keys(raw).find((k) => !FIELD_NAMES.includes(k));
  if (unknown) throw invalid('unknown_parameter', `Unrecognized request argument supplied: ${unknown}`, unknown);
  const anchor = raw['expires_after[anchor]'];
  const seconds = raw['expires_after[seconds]'];
  if ((anchor === undefined) !== (seconds === undefined) || (anchor !== undefined && anchor !== 'created_at'))
    throw invalid('invalid_expires_after', '"expires_after" needs anchor "created_at" and seconds.', 'expires_after');
  if (seconds !== undefined && !/^\d{1,10}$/.test(seconds))
    throw invalid('invalid_expires_after', '"expires_after[seconds]" must be a whole number of seconds.', 'expires_after');
  return { purpose: raw.purpose, expiresAfterSeconds: seconds === undefined ? undefined : Number(seconds) };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => undefined); // read by the upload only once a file part came
  return { promise, resolve, reject };
}

/**
 * Streams the form's `file` part into `files.upload` as it arrives; the text fields, which a client may send after
 * the file, follow as a promise. Past the upload limit the part is cut at once (a declared length over it is refused
 * before a byte is read): the store's write fails, the use case deletes what it wrote, and the rest of the body is
 * drained unread so the client can read the 400.
 */
export function receiveUpload(req: Request, files: Files, owner: { accountId: string }): Promise<StoredFile> {
  if (!req.is('multipart/form-data'))
    return Promise.reject(invalid('unsupported_content_type', 'Send the file as multipart/form-data with the fields file and purpose.'));
  if ((req.headers['content-encoding'] ?? 'identity').trim().toLowerCase() !== 'identity')
    return Promise.reject(invalid('unsupported_encoding', 'A multipart body cannot be sent compressed (Content-Encoding); send it as is.'));
  const limit = files.uploadBytes;
  if (Number(req.headers['content-length'] ?? 0) > limit + FORM_ROOM) return Promise.reject(fileTooLarge(limit));
  return new Promise<StoredFile>((resolve, reject) => {
    let form: ReturnType<typeof busboy>;
    try {
      // bytes past the limit make busboy cut the part; one more than the limit tells "over" from "exactly at it"
      const limits = { files: 1, fileSize: limit + 1, fields: 8, fieldSize: 1024, parts: 16 };
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by the first upload, not at start
      form = (require('busboy') as typeof busboy)({ headers: req.headers, defParamCharset: 'utf8', limits });
    } catch {
      return reject(malformed()); // no boundary
    }
    const fields = deferred<UploadFields>();
    const raw: Record<string, string> = {};
    let file: { destroy(e?: Error): void } | undefined;
    let upload: Promise<StoredFile> | undefined;
    let failure: GatewayError | undefined;
    const stopReading = () => {
      req.unpipe(form);
      req.resume(); // drain what is left so the answer can be read
    };
    const fail = (e: GatewayError) => {
      failure ??= e;
      fields.reject(failure);
      file?.destroy(failure);
      stopReading();
      if (!upload) reject(failure);
    };
    form.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) fail(invalid('invalid_field', `The field ${name} is too long.`, name));
      else raw[name] = value;
    });
    form.on('file', (name, stream, info) => {
      if (name !== 'file' || upload) return void stream.resume();
      file = stream;
      stream.on('limit', () => fail(fileTooLarge(limit)));
      upload = files.upload(owner, { filename: info.filename ?? '', source: stream, fields: fields.promise });
      upload.then(resolve, (e: unknown) => {
        if (!failure) stopReading();
        reject(failure ?? e);
      });
    });
    form.on('close', () => {
      try {
        fields.resolve(decodeUploadFields(raw));
      } catch (e) {
        fields.reject(e);
        if (!upload) reject(e);
      }
      if (!upload) reject(noFile());
    });
    form.on('error', () => fail(malformed()));
    form.on('partsLimit', () => fail(invalid('too_many_parts', 'The form has too many parts: send file, purpose and expires_after only.')));
    form.on('fieldsLimit', () => fail(invalid('too_many_parts', 'The form has too many fields: send purpose and expires_after only.')));
    req.on('close', () => {
      if (!req.complete) fail(invalid('client_closed', 'The upload ended before the whole form arrived.'));
    });
    req.pipe(form);
  });
}
