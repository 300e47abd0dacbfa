// process lane: real gateway processes, browsers and agents; a start can take a minute on a loaded machine.
jest.setTimeout(120_000);
