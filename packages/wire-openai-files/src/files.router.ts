import { deletionReceipt, openAiErrorShape, pathParam, queryParams, routeOf, sendContent } from '@gateway/http-kit';
import { attachmentName, decodeFileListQuery, encodeFile, encodeFileList, type FileListQueryParams } from './file.object.codec';
import { receiveUpload } from './file-upload';
import { fileList, fileObject, listParams, uploadForm } from './files.openapi';
import type { FilesRouterDeps } from './files.services';

const route = routeOf<FilesRouterDeps>();
const format = 'openai-files';
/** any key of the account; a dashboard session may read its account's files too */
const auth = { kind: 'api-key', role: 'member' } as const;
const read = { ...auth, session: true } as const;
const idParam = pathParam('id', 'The file id (`file-…`).');
const json = (schema: object) => ({ 'application/json': schema });

export const filesRoutes = [
  route({
    method: 'post',
    path: '/v1/files',
    summary: 'Upload a file',
    description:
      'multipart/form-data: `file` (at most 200 MiB), `purpose` (`batch` or `user_data`), optional `expires_after[anchor]=created_at` and `expires_after[seconds]` (3600 to 2592000). Batch files expire after 30 days unless `expires_after` says otherwise. The upload streams to the content store; a larger one is refused with 400 `file_too_large` and leaves nothing behind.',
    format,
    auth,
    body: { required: true, content: { 'multipart/form-data': uploadForm } },
    response: { description: 'The file object.', content: json(fileObject) },
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      res.json(encodeFile(await receiveUpload(req, deps.files, principal)));
    },
  }),
  route({
    method: 'get',
    path: '/v1/files',
    summary: 'List files',
    description: "The account's files, newest first unless `order=asc`; pass `last_id` as `after` while `has_more`.",
    format,
    auth: read,
    params: listParams,
    query: queryParams<FileListQueryParams>(listParams),
    response: { description: 'A page of file objects.', content: json(fileList) },
    errors: 'openai',
    async handle({ deps, principal, query }, _req, res) {
      const { files, hasMore } = await deps.files.list(principal, decodeFileListQuery(query));
      res.json(encodeFileList(files, hasMore));
    },
  }),
  route({
    method: 'get',
    path: '/v1/files/{id}',
    summary: 'Read a file object',
    description: "Another account's file and an expired one are missing files: 404.",
    format,
    auth: read,
    params: [idParam],
    response: { description: 'The file object.', content: json(fileObject) },
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      res.json(encodeFile(await deps.files.get(principal, String(req.params.id))));
    },
  }),
  route({
    method: 'get',
    path: '/v1/files/{id}/content',
    summary: 'Download a file',
    description: 'The raw bytes as uploaded or written (application/octet-stream); one byte range (206) and HEAD.',
    format,
    auth: read,
    params: [idParam],
    response: {
      description: 'The bytes.',
      content: { 'application/octet-stream': { type: 'string', contentMediaType: 'application/octet-stream' } },
    },
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      const content = await deps.files.content(principal, String(req.params.id));
      const how = {
        filename: attachmentName(content.file.filename),
        disposition: 'attachment',
        renderError: openAiErrorShape.render,
      } as const;
      await sendContent(req, res, content, how);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/files/{id}',
    summary: 'Delete a file',
    description: 'Deletes the file object and its bytes.',
    format,
    auth,
    params: [idParam],
    response: deletionReceipt('file'),
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      const file = await deps.files.delete(principal, String(req.params.id));
      res.json({ id: file.id, object: 'file', deleted: true });
    },
  }),
];
