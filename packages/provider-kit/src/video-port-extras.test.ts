import { videoPortExtras } from './video-port-extras';

describe('videoPortExtras', () => {
  const mapped = (e: unknown) => new Error(`mapped: ${(e as Error).message}`);

  it("passes the check on with its errors mapped, and the port's flags as declared", () => {
    const port = {
      idempotentStart: false,
      remix: true,
      check(req: string) {
        if (req === 'bad') throw new Error('refused');
      },
    };
    const extras = videoPortExtras(port, mapped);
    expect(() => extras.check!('bad')).toThrow('mapped: refused');
    expect(() => extras.check!('good')).not.toThrow();
    expect({ idempotentStart: extras.idempotentStart, remix: extras.remix }).toEqual({ idempotentStart: false, remix: true });
  });

  it('adds nothing the port does not declare', () => {
    expect(videoPortExtras<string>({}, mapped)).toEqual({});
  });
});
