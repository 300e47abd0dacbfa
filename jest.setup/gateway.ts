// gateway lane: the real app in this process; starting one boots PGlite: 10–70 s seen on a loaded 2-core machine.
jest.setTimeout(120_000);
