/** For tests only (`@gateway/provider-ark/testing`): a fake Ark (Seedance) upstream speaking its wire format on 127.0.0.1. */
export { type FakeArk, type FakeArkOptions, startFakeArk } from './fake-ark-upstream';
