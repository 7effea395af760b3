import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../../src/http/admin/console.js';
import { GUIDE_GROUPS, groupGuides, UNGROUPED_TITLE } from '../../src/http/pages/guide-groups.js';

// Every guide of docs/ is listed in exactly one group of /guides (src/http/pages/guide-groups.ts): a new guide in no
// group fails here, so it is placed on purpose rather than left at the bottom.

const guides = readdirSync(join(packageRoot(), 'docs'))
  .map((file) => /^([a-z0-9-]+)\.md$/.exec(file)?.[1])
  .filter((name): name is string => name !== undefined);

describe('/guides groups', () => {
  it('puts every docs/*.md guide in exactly one group, and names no guide that does not exist', () => {
    for (const name of guides) {
      const groups = GUIDE_GROUPS.filter((g) => g.guides.includes(name)).map((g) => g.title);
      assert.equal(groups.length, 1, `docs/${name}.md is in ${groups.length === 0 ? 'no group: add it to one in src/http/pages/guide-groups.ts' : `${groups.join(' and ')}`}`);
    }
    for (const group of GUIDE_GROUPS) {
      for (const name of group.guides) assert.ok(guides.includes(name), `${group.title} names ${name}, which is not in docs/`);
    }
  });

  it('starts with Start here and Quickstart, and lists a guide no group names at the end rather than hiding it', () => {
    assert.equal(GUIDE_GROUPS[0]?.title, 'Start here');
    assert.equal(GUIDE_GROUPS[0]?.guides[0], 'quickstart');
    const grouped = groupGuides(['webhooks', 'zz-new', 'quickstart']);
    assert.deepEqual(grouped, [
      { title: 'Start here', guides: ['quickstart'] },
      { title: 'Integrate', guides: ['webhooks'] },
      { title: UNGROUPED_TITLE, guides: ['zz-new'] },
    ]);
  });
});
