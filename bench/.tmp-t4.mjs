import TurndownService from 'turndown';
const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
const cases = {
  misnest: '<b><i>x</b></i>',
  aopen: '<a href=x>y',
  table: '<table><tr><td>x<div>y',
  table2: '<table>x',
  pOpen: '<p>x',
  liOpen: '<li>x',
  spanclosed: '<span>x</span>',
  bi: '<b>x<i>y</b>z</i>',
  selectOpt: '<select><option>x',
  formatting: '<p><b><i><u>x</p>',
};
for (const [name, unit] of Object.entries(cases)) {
  const html = unit.repeat(Math.floor(300_000 / unit.length));
  let t = Date.now();
  try { const md = td.turndown(html); console.log(name, Date.now() - t, 'ms', md.length); } catch (e) { console.log(name, 'err', e.message, Date.now()-t); }
}
