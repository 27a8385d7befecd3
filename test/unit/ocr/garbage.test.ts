import { describe, expect, it } from 'vitest';
import { judgeTextLayer, pagesNeedingOcr } from '../../../electron/engine/ocr';
import { CELL_SEPARATOR } from '../../../electron/engine/pdf';
import { documentFromPages } from '../../helpers/documents';
import { JUNK_TOKEN_SHARE } from '../../../electron/engine/ocr/garbage';

/** A page of an audit report quoting the code a finding is about, as pdf.js reads its text layer. */
const SOLIDITY_LISTING = [
  '5.2.6 abi_decode_bytes does not mask the copied data length',
  'function _withdraw(address to, uint256 amount) internal {',
  '    require(balances[msg.sender] >= amount, "insufficient");',
  '    balances[msg.sender] -= amount;',
  '    (bool ok, ) = to.call{value: amount}("");',
  '    require(ok && amount != 0 || to == address(0));',
  '    // @audit the length is copied without masking',
  '    assembly { mstore(add(ptr, 0x20), and(len, 0xff)) }',
  '    emit Withdrawn(msg.sender, to, amount);',
  '}',
  'assembly {',
  '    let len := mload(src)',
  '    let ptr := add(dst, 0x20)',
  '    for { let i := 0 } lt(i, len) { i := add(i, 0x20) } {',
  '        mstore(add(ptr, i), mload(add(add(src, 0x20), i)))',
  '    }',
  '    mstore(dst, len)',
  '}',
  'uint256 x = a + b * c - d / e;',
  'if (a == b && c != d || e >= f) {',
  '    x = y << 2 | z >> 1 & 0xff;',
  '}',
].join('\n');

/** A finding's page as pdf.js reads it: code with a reviewer's ">" markers and comments, then the prose under it. */
const MIXED_CODE_PAGE = [
  'function createTier(',
  'mapping(uint256 => ITier.Tier) storage tiers,',
  'uint256 newTierId,',
  'ITier.TierInitParams memory _params',
  ') external {',
  '_validateParams(_params);',
  'uint256 decimals = _params.saleToken.decimals();',
  '> _params.minPerUser = _params.minPerUser.to18(',
  'decimals',
  '); //@audit -> normalised to 18 decimals',
  '> _params.maxPerUser = _params.maxPerUser.to18(decimals); //@audit ->',
  '> require(x >= y && z != 0 || w == 1, "bad");',
  '> total = a + b * c - d / e; // @audit ->',
  ',! normalised to 18 decimals',
  '....',
  '}',
  'However, when a participant invokes TokenSale::buy, the amount is assumed to be in 18 decimals.',
  'The function compares this amount with the minimum and maximum allocations per user.',
  '44',
].join('\n');

const RUST_LISTING = [
  'pub fn settle(&mut self, id: u64) -> Result<(), Error> {',
  '    let entry = self.orders.get_mut(&id).ok_or(Error::Missing)?;',
  '    if entry.filled >= entry.size { return Err(Error::Filled); }',
  '    entry.filled += 1;',
  '    Ok(())',
  '}',
].join('\n');

/** The text layer of page 4 of the corpus scan (hard-scanned-no-text.pdf): a scanner's bad OCR of a chart. */
const CORPUS_P4_LAYER = 'sw | \\\n\n+\n\n400 +\n300\n200 4\n\n—esupport\nBH No vote{note 1]';

describe('garbage text layers', () => {
  it.each([
    [
      'prose with IDs, abbreviations and versions',
      'The auditors found that access control (see PBI-1234) was not enforced; e.g. the admin API accepted tokens from v1.2 clients. Severity: High.',
    ],
    ['a table of figures', 'Item Q1 Q2 Q3\nRevenue 1,200.50 $40 12%\nCost (300) 4.5 - 7\n2024-01-03 3rd 10:30'],
    ['a bulleted list', '• First item here\n• Second item — done\n- Third: pending'],
    [
      'a contents page with dot leaders and a table rule',
      'Contents\n1 About Cyfrin 2\n7 Findings 4\n7.1 High Risk . . . . . . . . . . . . . . . . . . . . . . . . . . 4\n7.1.1 Attackers can use a malicious yield token to steal funds . . . . . . . . . . 4\n7.2 Medium Risk . . . . . . . . . . . . . . . . . . . . . . . . 5\n7.3 Low Risk ……………… 5\n---------------------\nSeverity Count\n_______________\nHigh 2',
    ],
    ['other scripts', 'Die Prüfung ergab Mängel bei der Zugriffskontrolle. Контроль доступа не выполнялся.'],
    // Trial 2026-11-28 row 12: audit reports print code listings; their operators and braces stand alone as tokens.
    ['a Solidity listing', SOLIDITY_LISTING],
    [
      'a Solidity listing with line numbers',
      SOLIDITY_LISTING.split('\n')
        .map((line, i) => `${90 + i} ${line}`)
        .join('\n'),
    ],
    ['a Rust listing', RUST_LISTING],
    ['code marked with a diff\'s ">" and the prose that explains it', MIXED_CODE_PAGE],
  ])('keeps %s', (_name, text) => {
    expect(judgeTextLayer(text).garbage).toBe(false);
  });

  it.each([
    ["the corpus scan's bad OCR layer (page 4)", CORPUS_P4_LAYER],
    ['unmapped glyphs (private use area)', '\uE001\uE002\uE003 \uE004\uE005 \uE006 abc def ghi'],
    ['replacement characters from a broken font', 'Th\uFFFD \uFFFDudit f\uFFFDund th\uFFFDt acc\uFFFDss w\uFFFDs n\uFFFDt'],
    ['symbol soup', '!"# $%&\' ()*+ ,-./ :;<=> ?@[\\ ]^_` {|}~'],
  ])('flags %s', (_name, text) => {
    expect(judgeTextLayer(text).garbage).toBe(true);
  });

  it('leaves too-short layers alone (a page number or a stamp) and reports its measures', () => {
    expect(judgeTextLayer('| + \\').garbage).toBe(false);
    const verdict = judgeTextLayer(CORPUS_P4_LAYER);
    expect(verdict.tokens).toBe(14);
    expect(verdict.junkTokenShare).toBeGreaterThanOrEqual(JUNK_TOKEN_SHARE);
  });
});

describe('pages needing OCR', () => {
  // A dense born-digital table as ingestion writes it: each row one line, its cells joined by " | ".
  const rows = Array.from({ length: 40 }, (_, i) =>
    [`State ${i + 1}`, `${(i * 37) % 900}`, `${(i * 11) % 90}`, '0', `${i % 7}`, `${(i * 3) % 50}`, '1', '0'].join(CELL_SEPARATOR),
  );
  const tablePage = ['NICS firearm checks: month/year by state', ...rows].join('\n');
  const doc = documentFromPages([tablePage], 'table.pdf');
  const asPdf = { ...doc, kind: 'pdf' as const, pages: doc.pages.map((p) => ({ ...p, hasTextLayer: true })) };

  it('keeps the text layer of a dense table: the cell separators are layout, not junk', () => {
    expect(pagesNeedingOcr(asPdf, 'auto')).toEqual([]);
    // The same page's lone symbols count as junk when they are not ingestion's separators.
    const garbled = tablePage.split(CELL_SEPARATOR).join(' ¦ ');
    expect(judgeTextLayer(garbled).garbage).toBe(true);
  });
});
