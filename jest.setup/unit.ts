// unit lane: pure rules, codecs and adapters against in-process fakes.
jest.setTimeout(30_000);
