import TurndownService from 'turndown';
const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
td.remove(['script','style','nav','head','noscript','title']);
for (const n of [5000, 15000, 30000]) {
const big = '<html><body>' + '<p>Lorem ipsum dolor <a href="/x">sit</a> amet, consectetur.</p>\n'.repeat(n) + '</body></html>';
let t=Date.now(); const md = td.turndown(big); console.log((big.length/1e6).toFixed(2),'MB ms', Date.now()-t, md.length, 'rss', (process.memoryUsage().rss/1e6).toFixed(0));
}
const deep = '<div>'.repeat(100000) + 'x' + '</div>'.repeat(100000);
try { let t=Date.now(); const md = td.turndown(deep); console.log('deep ms', Date.now()-t, md.length); } catch (e) { console.log('deep err', e.message); }
