import { get, isAbort } from '../api.js';
import { el, notice, viewHeader } from '../dom.js';
import { latestOverview, onOverview } from '../feed.js';
import { formatDecimal, formatNumber } from '../format.js';
import { createTable } from '../table.js';

/** Whether this server is one node of a cluster, as its overview says: only a cluster node serves /api/cluster. */
async function isClustered(signal) {
  const overview = latestOverview() ?? await get('/api/overview', null, signal);
  return overview.clustered === true;
}

/**
 * #/cluster: the members as this node sees them, their state, the partitions each owns and backs
 * up, the keys each serves and its replication to its backups; refreshed with every live update.
 * A single node says so.
 */
export function mount(root, { signal }) {
  const status = el('div');
  const subtitle = el('span', { id: 'cluster-summary', className: 'muted' });
  const members = createTable({
    id: 'cluster-members',
    emptyText: 'No member is in the partition table yet.',
    columns: [
      { title: 'Member', className: 'key mono', cell: (m) => el('span', {}, m.id,
        m.self ? el('span', { className: 'badge badge-self', text: 'this node' }) : null) },
      { title: 'Address', className: 'mono', cell: (m) => m.address ?? '—' },
      { title: 'State', cell: (m) => el('span', { className: `badge badge-${m.state.toLowerCase()}`, text: m.state }) },
      { title: 'Owned', className: 'num', cell: (m) => formatNumber(m.partitionsOwned) },
      { title: 'Backed up', className: 'num', cell: (m) => formatNumber(m.partitionsBackedUp) },
      { title: 'Keys', className: 'num', cell: (m) => (m.answered ? formatNumber(m.keys) : '—') },
      { title: 'Replication lag', className: 'num', cell: (m) => (m.answered ? `${formatDecimal(m.replicationLagMillis)} ms` : '—') },
      { title: 'In flight', className: 'num', cell: (m) => (m.answered ? formatNumber(m.replicationInFlight) : '—') },
    ],
    rowData: (m) => ({ member: m.id, state: m.state, answered: String(m.answered) }),
  });
  const table = el('section', { className: 'card' }, el('div', { className: 'table-scroll' }, members.element));
  root.append(viewHeader('Cluster', { subtitle }), status, table);

  let inFlight = false;
  async function load() {
    if (inFlight || signal.aborted) return;
    inFlight = true;
    try {
      if (await isClustered(signal)) {
        show(await get('/api/cluster', null, signal));
      } else {
        table.hidden = true;
        subtitle.textContent = 'single node';
        status.replaceChildren(notice('Single node: this server is not part of a cluster (start it with --cluster).'));
      }
    } catch (error) {
      if (!isAbort(error) && error.status !== 401) status.replaceChildren(notice(error.message, 'error'));
    } finally {
      inFlight = false;
    }
  }

  function show(cluster) {
    const silent = cluster.members.filter((m) => !m.answered).length;
    status.replaceChildren(silent > 0
      ? notice(`${silent} ${silent === 1 ? 'member' : 'members'} did not report their figures in time.`, 'error')
      : cluster.ready ? '' : notice('This node is not ready yet: joining, leaving or waiting for partitions.'));
    subtitle.textContent = `${cluster.members.length} ${cluster.members.length === 1 ? 'member' : 'members'}`
      + ` · ${cluster.partitions} partitions · ${cluster.backups} ${cluster.backups === 1 ? 'backup' : 'backups'} each`;
    members.setItems(cluster.members);
  }

  onOverview(() => load(), signal);
  load();
}
