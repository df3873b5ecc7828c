/**
 * The slots an episode deleted from one collection, as a set that turns a list
 * position into a slot (list position p is the p-th slot not deleted). Few
 * deletions are a sorted array (an insert moves at most a few thousand numbers);
 * past that, a Fenwick tree of deletion counts over the slots, so a delete and
 * a position lookup take logarithmic time whatever the order of the deletes.
 * Its memory stays proportional to the deletions: the tree (4 bytes a slot) is
 * made only once the deletions outnumber a 32nd of the slots.
 */

/** The most deletions kept as a sorted array, at any collection size. */
const ARRAY_MAX = 4096;

export class DeletedSlots {
  /** Ascending deleted slots, while the set is small; null once the tree holds them. */
  private list: number[] | null = [];
  /** Fenwick tree over slots [0, cap): tree[i] counts deleted slots in (i - lowbit(i), i] (1-based). */
  private tree: Int32Array = new Int32Array(0);
  /** The slots the tree covers; every slot at or past it is live. */
  private cap = 0;
  private total = 0;

  /** `arrayMax`: the most deletions kept as a sorted array (tests lower it to reach the tree). */
  constructor(private readonly arrayMax = ARRAY_MAX) {}

  /** How many slots are deleted. */
  get count(): number {
    return this.list ? this.list.length : this.total;
  }

  /** Marks `slot` deleted (it must not be already); `slots` is how many slots the collection has. */
  insert(slot: number, slots: number): void {
    const list = this.list;
    if (list) {
      if (list.length === 0 || list[list.length - 1]! < slot) list.push(slot);
      else list.splice(lowerBound(list, slot), 0, slot);
      if (list.length > Math.max(this.arrayMax, slots >>> 5)) this.toTree(list, slots);
      return;
    }
    if (slot >= this.cap) this.grow(Math.max(slot + 1, slots, this.cap * 2));
    for (let i = slot + 1; i <= this.cap; i += i & -i) this.tree[i]! += 1;
    this.total += 1;
  }

  /** How many deleted slots lie below `slot`. */
  below(slot: number): number {
    if (this.list) return lowerBound(this.list, slot);
    let n = 0;
    for (let i = Math.min(slot, this.cap); i > 0; i -= i & -i) n += this.tree[i]!;
    return n;
  }

  /** The slot of list position `p` (the p-th slot, from 0, that is not deleted). */
  slotAt(p: number): number {
    const list = this.list;
    if (list) {
      // The number of i with list[i] - i <= p (list[i] - i live slots precede list[i]; non-decreasing).
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (list[mid]! - mid <= p) lo = mid + 1;
        else hi = mid;
      }
      return p + lo;
    }
    // The longest prefix [0, pos) with at most p live slots: slot pos is then the p-th live one, unless the
    // prefix is the whole tree (past it every slot is live).
    let pos = 0;
    let live = 0;
    for (let step = highBit(this.cap); step > 0; step >>>= 1) {
      const next = pos + step;
      if (next <= this.cap && live + step - this.tree[next]! <= p) {
        pos = next;
        live += step - this.tree[next]!;
      }
    }
    return pos + (p - live);
  }

  /** Forgets every deleted slot at or past `slot`. */
  dropFrom(slot: number): void {
    if (this.list) {
      this.list.length = lowerBound(this.list, slot);
      return;
    }
    // Tree nodes at or below `slot` cover only slots below it; the ones above are rebuilt when the tree grows.
    this.total = this.below(slot);
    this.cap = Math.min(this.cap, slot);
  }

  /** An independent copy. */
  copy(): DeletedSlots {
    const c = new DeletedSlots(this.arrayMax);
    c.list = this.list ? this.list.slice() : null;
    c.tree = this.list ? c.tree : this.tree.slice(0, this.cap + 1);
    c.cap = this.cap;
    c.total = this.total;
    return c;
  }

  private toTree(list: readonly number[], slots: number): void {
    this.list = null;
    this.cap = 0;
    this.total = 0;
    this.grow(Math.max(slots, list[list.length - 1]! + 1));
    for (const slot of list) {
      for (let i = slot + 1; i <= this.cap; i += i & -i) this.tree[i]! += 1;
    }
    this.total = list.length;
  }

  /** Covers slots [0, cap) from now on: nodes past the old cover are computed from the prefix counts. */
  private grow(cap: number): void {
    const old = this.tree;
    const oldCap = this.cap;
    const prefix = (x: number) => {
      let n = 0;
      for (let i = Math.min(x, oldCap); i > 0; i -= i & -i) n += old[i]!;
      return n;
    };
    const tree = new Int32Array(cap + 1);
    tree.set(old.subarray(0, oldCap + 1));
    for (let i = oldCap + 1; i <= cap; i++) tree[i] = prefix(i) - prefix(i - (i & -i));
    this.tree = tree;
    this.cap = cap;
  }
}

/** The highest power of two not above `n` (0 for 0). */
function highBit(n: number): number {
  return n <= 0 ? 0 : 2 ** (31 - Math.clz32(n));
}

/** The first position in an ascending list whose value is not below `value`. */
function lowerBound(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
