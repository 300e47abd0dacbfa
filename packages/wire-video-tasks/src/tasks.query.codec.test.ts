import { decodeTaskListQuery } from './tasks.query.codec';

const codeOf = (q: Record<string, unknown>) => {
  try {
    decodeTaskListQuery(q);
    return 'accepted';
  } catch (e) {
    return (e as { code: string }).code;
  }
};

describe('decodeTaskListQuery', () => {
  it('defaults to the first page of 10, newest first', () => {
    expect(decodeTaskListQuery({})).toEqual({ limit: 10, offset: 0, order: 'desc', status: undefined, model: undefined, ids: undefined });
  });

  it('pages by offset and reads dotted and bracket filters', () => {
    expect(
      decodeTaskListQuery({
        page_num: '3',
        page_size: '20',
        'filter.status': 'queued',
        filter: { model: 'm' },
        'filter.task_ids': ['a', 'b'],
      }),
    ).toEqual({ limit: 20, offset: 40, order: 'desc', status: 'queued', model: 'm', ids: ['a', 'b'] });
    expect(decodeTaskListQuery({ 'filter.task_ids': 'a' }).ids).toEqual(['a']);
  });

  it.each([
    [{ page_num: '0' }, 'invalid_page_num'],
    [{ page_num: 'x' }, 'invalid_page_num'],
    [{ page_size: '501' }, 'invalid_page_size'],
    [{ 'filter.status': 'done' }, 'invalid_status_filter'],
    [{ 'filter.service_tier': 'flex' }, 'unsupported_filter'],
    [{ 'filter.model': ['a', 'b'] }, 'invalid_model_filter'],
  ])('%j → %s', (q, code) => expect(codeOf(q)).toBe(code));
});
