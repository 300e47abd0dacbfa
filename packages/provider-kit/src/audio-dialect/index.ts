export { TranscriptionsModel, WHISPER_DIALECT, type TranscriptionDialect } from './transcriptions-model';
