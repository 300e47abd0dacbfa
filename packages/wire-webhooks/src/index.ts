export { webhooksFormat } from './webhooks.format';
export { encodeDelivery, encodeEndpoint } from './webhooks.object.codec';
export { createEndpointSchema, updateEndpointSchema } from './webhooks.request.schema';
