import { decodeDataUrl, imagePartFromUrl, parseDataUrl, urlOfImagePart } from './data-url';

describe('data URLs', () => {
  it('splits type, parameters and payload, and ignores what is not a data URL', () => {
    expect(parseDataUrl('data:image/png;base64,aGk=')).toEqual({ mediaType: 'image/png', base64: true, payload: 'aGk=' });
    expect(parseDataUrl('DATA:text/plain;charset=utf-8,hi,there')).toEqual({ mediaType: 'text/plain', base64: false, payload: 'hi,there' });
    expect(parseDataUrl('data:;base64,aGk=')).toEqual({ mediaType: '', base64: true, payload: 'aGk=' });
    expect(parseDataUrl('data:image/png;base64')).toBeNull();
    expect(parseDataUrl('https://example.com/data:x,y')).toBeNull();
  });

  it('decodes strict base64 only, never to zero bytes', () => {
    const decoded = decodeDataUrl('data:image/png;base64,aGk=');
    expect(decoded?.mediaType).toBe('image/png');
    expect(Buffer.from(decoded!.data).toString()).toBe('hi');
    expect(decodeDataUrl('data:image/png,aGk=')).toBeNull();
    expect(decodeDataUrl('data:image/png;base64,@@@')).toBeNull();
    expect(decodeDataUrl('data:image/png;base64,')).toBeNull();
  });

  it('turns a typed base64 data URL into an inline image part and back; other URLs stay URLs', () => {
    const inline = imagePartFromUrl('data:image/jpeg;base64,/9j/');
    expect(inline).toEqual({ type: 'image', mediaType: 'image/jpeg', data: '/9j/' });
    expect(urlOfImagePart(inline)).toBe('data:image/jpeg;base64,/9j/');
    expect(imagePartFromUrl('https://example.com/a.png')).toEqual({ type: 'image', url: 'https://example.com/a.png' });
    expect(imagePartFromUrl('data:;base64,AAAA')).toEqual({ type: 'image', url: 'data:;base64,AAAA' });
  });
});
