import { mentionedTool } from './mentioned-tool';
import { planAnswer } from './simulator-text-model';

const tools = (...names: string[]) => names.map((name) => ({ name }));

describe('the tool a prompt asks for', () => {
  it.each([
    ['please call exec_command', 'functions__exec_command'],
    ['please call exec_command', 'functions.exec_command'],
    ['run functions.exec_command now', 'functions__exec_command'],
    ['use the read_file tool', 'mcp__fs__read_file'],
    ['use mcp__fs__read_file', 'mcp__fs__read_file'],
    ['call fs/read_file', 'fs/read_file'],
    ['Call Read, please', 'Read'],
    ['please call view_image', 'view_image'],
  ])('%j calls %s', (prompt, name) => {
    expect(mentionedTool(prompt, tools('other', name))?.name).toBe(name);
  });

  it('a short name inside another word is no mention, and a full-name mention wins over a short one', () => {
    expect(mentionedTool('it is already done', tools('mcp__fs__read'))).toBeUndefined();
    expect(mentionedTool('call exec_command_v2', tools('ns__exec_command'))).toBeUndefined();
    expect(mentionedTool('call b__exec', tools('a__exec', 'b__exec'))?.name).toBe('b__exec');
  });

  it('the simulator calls a namespaced tool the prompt names, as Codex declares exec_command', () => {
    const plan = planAnswer({
      model: 'sim',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'please call exec_command' }] }],
      tools: [
        { name: 'unified__exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } },
      ],
      toolChoice: 'auto',
    });
    expect(plan.toolCall?.name).toBe('unified__exec_command');
    expect(JSON.parse(plan.toolCall!.arguments)).toEqual({ cmd: expect.any(String) });
  });
});
