export { openAiFilesFormat } from './files.format';
