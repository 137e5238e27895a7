import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fillTemplate, loadAlertTemplates, type TemplateValues } from './alert-templates.ts';

const HOSTILE = `<script>alert("x")</script> & 'quoted' \`tick\``;

const values: TemplateValues = {
  bankName: 'Bank <b>',
  logoUrl: 'https://example.test/logo.png" onerror="alert(1)',
  headline: HOSTILE,
  direction: 'Credit',
  amount: '₦1,000.00',
  narration: HOSTILE,
  balance: '₦2,000.00',
  date: '2026-03-02 10:00 WAT',
  accountNumber: '100****013',
  accountName: 'ADE & SONS <LTD>',
  lines: '',
};

describe('alert templates', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'openibs-templates-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("an operator's HTML template replaces the default, and escapes every hostile value", async () => {
    await writeFile(
      path.join(dir, 'alert.html'),
      '<p title="{{narration}}">{{bankName}}: {{narration}} for {{accountName}}</p>{{#logoUrl}}<img src="{{logoUrl}}">{{/logoUrl}}{{#lines}}<pre>{{lines}}</pre>{{/lines}}',
    );
    const templates = loadAlertTemplates(dir);
    const html = fillTemplate(templates.html, values, { escape: true });
    assert.ok(!html.includes('<script>'), html);
    assert.ok(!html.includes('<b>'), html);
    assert.ok(!html.includes('" onerror='), html);
    assert.match(
      html,
      /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; &#39;quoted&#39; &#96;tick&#96;/,
    );
    assert.match(html, /ADE &amp; SONS &lt;LTD&gt;/);
    assert.match(
      html,
      /<img src="https:\/\/example.test\/logo.png&quot; onerror=&quot;alert\(1\)">/,
    );
    assert.ok(!html.includes('<pre>'), 'an empty section is left out');
    // The defaults stay for the files the operator did not give.
    assert.match(templates.sms, /\{\{amount\}\}/);
  });

  it('a value that looks like a tag stays text', () => {
    const out = fillTemplate(
      '{{narration}}',
      { ...values, narration: '{{bankName}}' },
      {
        escape: false,
      },
    );
    assert.equal(out, '{{bankName}}');
  });

  it('the text and SMS templates are not HTML-escaped', () => {
    assert.equal(fillTemplate('{{accountName}}', values, { escape: false }), 'ADE & SONS <LTD>');
  });

  it('a template naming an unknown field, or with an unclosed section, stops the start', async () => {
    const bad = await mkdtemp(path.join(tmpdir(), 'openibs-templates-bad-'));
    try {
      await writeFile(path.join(bad, 'alert.txt'), 'Hello {{password}}');
      assert.throws(() => loadAlertTemplates(bad), /unknown field \{\{password\}\}/);
      await writeFile(path.join(bad, 'alert.txt'), '{{#lines}} open');
      assert.throws(() => loadAlertTemplates(bad), /never closed/);
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });
});
