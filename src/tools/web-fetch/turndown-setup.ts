/**
 * The turndown configuration: headings as `#`, fenced code, and the noise of a web page (scripts,
 * styles, navigation, forms, inline images as data URIs) left out.
 *
 * SELF-CONTAINED ON PURPOSE: html-worker.ts sends this function to a worker thread as source text
 * (`setupTurndown.toString()`), so it may use nothing but its parameter — no imports, no helpers,
 * no constants from this module.
 */

/** The part of a turndown service we use. */
export interface MarkdownConverter {
  turndown(html: string): string;
}

export function setupTurndown(TurndownService: any): MarkdownConverter {
  const td = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    linkStyle: 'inlined',
  });
  td.remove([
    'script',
    'style',
    'noscript',
    'template',
    'head',
    'title',
    'meta',
    'link',
    'base',
    'nav',
    'iframe',
    'frame',
    'frameset',
    'svg',
    'math',
    'canvas',
    'object',
    'embed',
    'video',
    'audio',
    'form',
    'button',
    'input',
    'select',
    'textarea',
    'dialog',
  ]);
  const attr = (node: any, name: string): string => String((node && node.getAttribute && node.getAttribute(name)) || '').toLowerCase();
  td.remove((node: any) => {
    const role = attr(node, 'role');
    return role === 'navigation' || role === 'search' || role === 'menubar' || attr(node, 'aria-hidden') === 'true' || node.hidden === true;
  });
  td.addRule('inlineDataImages', {
    filter: (node: any) => node.nodeName === 'IMG' && /^data:/i.test(node.getAttribute('src') || ''),
    replacement: (_content: string, node: any) => (node.getAttribute('alt') ? `[image: ${node.getAttribute('alt')}]` : ''),
  });
  td.addRule('scriptLinks', {
    filter: (node: any) => node.nodeName === 'A' && /^\s*javascript:/i.test(node.getAttribute('href') || ''),
    replacement: (content: string) => content,
  });
  // "- item" rather than turndown's "-   item": the same Markdown in fewer tokens.
  td.addRule('compactListItem', {
    filter: 'li',
    replacement: (content: string, node: any, options: any) => {
      const text = content.replace(/^\n+/, '').replace(/\n+$/, '\n').replace(/\n/gm, '\n  ');
      const parent = node.parentNode;
      let prefix = `${options.bulletListMarker} `;
      if (parent && parent.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start')) || 1;
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      return prefix + text + (node.nextSibling && !/\n$/.test(text) ? '\n' : '');
    },
  });
  return td;
}
