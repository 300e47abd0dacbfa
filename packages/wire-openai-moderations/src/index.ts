export { openAiModerationsFormat } from './moderations.router';
