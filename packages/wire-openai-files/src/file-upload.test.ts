import { decodeUploadFields } from './file-upload';
import { attachmentName, decodeFileListQuery } from './file.object.codec';

describe('the upload form fields', () => {
  it('reads purpose and expires_after as the openai SDK writes them', () => {
    expect(decodeUploadFields({ purpose: 'batch' })).toEqual({ purpose: 'batch', expiresAfterSeconds: undefined });
    expect(decodeUploadFields({ purpose: 'user_data', 'expires_after[anchor]': 'created_at', 'expires_after[seconds]': '3600' })).toEqual({
      purpose: 'user_data',
      expiresAfterSeconds: 3600,
    });
  });

  it('refuses unknown fields, another anchor, half an expires_after and a seconds value that is not a number', () => {
    expect(() => decodeUploadFields({ purpose: 'batch', model: 'x' })).toThrow(
      expect.objectContaining({ code: 'unknown_parameter', param: 'model' }),
    );
    const refused: Array<Record<string, string>> = [
      { 'expires_after[anchor]': 'last_active_at', 'expires_after[seconds]': '3600' },
      { 'expires_after[seconds]': '3600' },
      { 'expires_after[anchor]': 'created_at' },
      { 'expires_after[anchor]': 'created_at', 'expires_after[seconds]': '1e4' },
    ];
    for (const bad of refused)
      expect(() => decodeUploadFields({ purpose: 'batch', ...bad })).toThrow(expect.objectContaining({ param: 'expires_after' }));
  });
});

describe('the list query and the download name', () => {
  it('defaults to 10,000 files newest first and refuses a limit outside 1 to 10,000', () => {
    expect(decodeFileListQuery({})).toEqual({ purpose: undefined, after: undefined, limit: 10_000, order: 'desc' });
    expect(decodeFileListQuery({ limit: '5', order: 'asc', after: 'file-1', purpose: 'batch' })).toEqual({
      purpose: 'batch',
      after: 'file-1',
      limit: 5,
      order: 'asc',
    });
    for (const limit of ['0', '10001'])
      expect(() => decodeFileListQuery({ limit })).toThrow(expect.objectContaining({ code: 'invalid_limit' }));
  });

  it('keeps a Content-Disposition filename to printable ASCII without quotes', () => {
    expect(attachmentName('in "put".jsonl')).toBe('in _put_.jsonl');
    expect(attachmentName('données\\\r\n.txt')).toBe('donn_es___.txt');
  });
});
