// process lane: real gateway processes, browsers and agents; a scenario starts several (two minutes and more seen on a loaded machine).
jest.setTimeout(240_000);
