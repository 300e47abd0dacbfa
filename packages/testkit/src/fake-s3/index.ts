export { startFakeS3, type FakeS3, type FakeS3Object, type FakeS3Request } from './fake-s3';
