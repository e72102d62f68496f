/** The files a shell command writes outside the project, listed as not restorable by a rewind: more than literal arguments. */
import { beforeAll, expect, it } from 'vitest';
import { writesOutside } from '../../../src/core/snapshots/outside-paths.js';
import { initBashParser } from '../../../src/tools/bash/parse.js';

beforeAll(() => initBashParser());

const outside = (command: string) => writesOutside(command, '/proj/sub', '/proj', '/home/u').sort();

it('follows cd, reads ~, $HOME and $PWD, and leaves out what stays in the project', () => {
  expect(outside('cd /tmp && touch x')).toEqual(['/tmp/x']);
  expect(outside('echo hi > ~/x')).toEqual(['/home/u/x']);
  expect(outside('cp a "$HOME/y" && cp b ${HOME}/z')).toEqual(['/home/u/y', '/home/u/z']);
  expect(outside('echo x >> /tmp/log; rm ../../other')).toEqual(['/other', '/tmp/log']);
  expect(outside('touch "$PWD/in.txt" ../in-too.txt && echo > /dev/null')).toEqual([]);
});
