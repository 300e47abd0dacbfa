export { openAiBatchesFormat } from './batches.format';
