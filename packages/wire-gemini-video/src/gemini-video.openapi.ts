import { pathParam } from '@gateway/http-kit';

export const operation = {
  type: 'object',
  required: ['name', 'done'],
  properties: {
    name: { type: 'string', description: 'models/<model>/operations/<id>: keep the whole value, it is the poll path.' },
    done: { type: 'boolean' },
    response: {
      type: 'object',
      properties: {
        '@type': { type: 'string' },
        generateVideoResponse: {
          type: 'object',
          properties: {
            generatedSamples: {
              type: 'array',
              items: {
                type: 'object',
                properties: { video: { type: 'object', required: ['uri'], properties: { uri: { type: 'string' } } } },
              },
            },
          },
        },
      },
    },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' }, details: { type: 'array', items: { type: 'object' } } },
    },
  },
};

export const modelParam = pathParam('model', "A video model id of the key's group.");

/** The operation paths: any model name, and the task id. */
export const operationParams = [
  { ...modelParam, description: 'Any model name (the one in the operation name).' },
  pathParam('id', 'The task id.'),
] as const;
