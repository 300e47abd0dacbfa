import { openApiDocument } from './openapi-document';
import type { RouteDoc } from './route-doc';
import { openAiErrorShape } from './shared-error-dialects';

const info = {
  title: 'T',
  version: '1.2.3',
  description: 'D',
  publicBaseUrl: 'https://gw.example',
  errorShapes: new Map([[openAiErrorShape.name, openAiErrorShape]]),
};

const route = (over: Partial<RouteDoc> = {}): RouteDoc => ({
  method: 'get',
  path: '/v1/things/{id}',
  summary: 'A thing',
  format: 'things',
  auth: { kind: 'api-key', role: 'member', alternativeHeaders: ['x-api-key'] },
  response: { description: 'The thing.', content: { 'application/json': { type: 'object' } } },
  errors: openAiErrorShape.name,
  ...over,
});

describe('openApiDocument', () => {
  it('documents each route from its declaration: path parameters, security, error ranges in the named shape', () => {
    const doc = openApiDocument([route()], info);
    expect(doc.info).toEqual({ title: 'T', version: '1.2.3', description: 'D' });
    expect(doc.servers).toEqual([{ url: 'https://gw.example' }]);
    const op = doc.paths['/v1/things/{id}']!.get as Record<string, unknown>;
    expect(op.operationId).toBe('getV1ThingsId');
    expect(op.security).toEqual([{ bearerKey: [] }, { 'x-api-key': [] }]);
    expect(op.parameters).toEqual([{ name: 'id', in: 'path', description: 'id', required: true, schema: { type: 'string' } }]);
    const responses = op.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
    expect(Object.keys(responses).sort()).toEqual(['200', '4XX', '5XX']);
    expect(responses['4XX']!.content!['application/json']!.schema).toEqual({ $ref: `#/components/schemas/${openAiErrorShape.schemaName}` });
    expect(doc.components.schemas).toEqual({ [openAiErrorShape.schemaName]: openAiErrorShape.schema });
    expect(doc.components.securitySchemes).toHaveProperty('x-api-key');
  });

  it('refuses a route documented twice and an error shape nobody declares', () => {
    expect(() => openApiDocument([route(), route()], info)).toThrow('Route documented twice: GET /v1/things/{id}');
    expect(() => openApiDocument([route({ errors: 'nobody' })], info)).toThrow('unknown error shape nobody');
  });
});
