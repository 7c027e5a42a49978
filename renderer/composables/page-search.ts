/**
 * The Pages view's search and inspected page, kept in the address (lib/page-search-route.ts):
 * the form's draft filled from it, the engine asked for what it names (a page of results, or
 * the page open in the inspector with its link pages), and every control writing a new address
 * rather than asking the engine itself, so a reload or Back shows the same thing.
 */
import { computed, reactive, ref, watch, type ComputedRef } from 'vue';
import { useRoute, useRouter, type RouteLocationNormalizedLoaded, type RouteLocationRaw } from 'vue-router';
import type { PageSearchQuery, PageSearchDto, PageSortKey } from '../../core/api/contract.js';
import { PageSearchSchema } from '../../core/api/page-request-schema.js';
import { fieldErrors } from '../../core/config/request-words.js';
import { formatNumber } from '../lib/format.js';
import { LINK_LIMIT, linkOffsets, routeOfSearch, searchFromRoute } from '../lib/page-search-route.js';
import { useInspectorStore } from '../stores/inspector.js';
import { usePagesStore } from '../stores/pages.js';
import { onUpgraded } from './after-upgrade.js';

/** The crawl (route :id) and the page open in the inspector (?url=). */
interface PagesProps {
  id?: string;
  url?: string;
}

/** The form, filled from the address whenever it changes, and the engine asked for what the address names. */
function useDraftOfAddress(props: PagesProps, route: RouteLocationNormalizedLoaded, search: ComputedRef<PageSearchQuery>) {
  const inspector = useInspectorStore();
  const pages = usePagesStore();
  const draft = reactive({ url: '', site: '', status: '', type: '', depth: '', exactDepth: false, sort: 'fetch' as PageSortKey, descending: false, open: '' });
  const ask = (id: string | undefined, url: string | undefined) => {
    if (!id) return;
    if (url) void inspector.lookup(id, url, { linkLimit: LINK_LIMIT, ...linkOffsets(route.query) });
    else void pages.search(id, search.value);
  };
  watch(
    () => [props.id, props.url, route.query] as const,
    ([id, url]) => {
      const s = search.value;
      Object.assign(draft, {
        url: s.url ?? '',
        site: s.site ?? '',
        status: s.status ?? '',
        type: s.type ?? '',
        depth: s.depth !== undefined ? String(s.depth) : '',
        exactDepth: s.exactDepth ?? false,
        sort: s.sort ?? 'fetch',
        descending: s.descending ?? (s.sort ?? 'fetch') !== 'fetch',
        open: url ?? '',
      });
      ask(id, url);
    },
    { immediate: true, deep: true },
  );
  onUpgraded(() => props.id, () => ask(props.id, props.url));
  return draft;
}

type Draft = ReturnType<typeof useDraftOfAddress>;

/** The draft as a search from its first page, or why its depth is not one (the field is text). */
export function searchOfDraft(draft: Draft): { search: PageSearchQuery } | { depthError: string } {
  const raw = String(draft.depth ?? '').trim();
  const search: PageSearchQuery = {
    url: draft.url.trim() || undefined,
    site: draft.site.trim() || undefined,
    status: (draft.status || undefined) as PageSearchQuery['status'],
    type: draft.type.trim() || undefined,
    depth: raw === '' ? undefined : /^\d+$/.test(raw) ? Number(raw) : NaN,
    exactDepth: draft.exactDepth,
    sort: draft.sort,
    descending: draft.descending,
    offset: 0,
  };
  // The depth checked with the engine's own schema (its words), before anything is asked.
  const problem = fieldErrors(PageSearchSchema, search, 'a page search').depth;
  return problem ? { depthError: `Depth ${problem} (not “${raw}”).` } : { search };
}

/** What the results line and the pager say of a page of results. */
function useResultFacts(result: ComputedRef<PageSearchDto | null>) {
  const offset = computed(() => result.value?.offset ?? 0);
  const hasNext = computed(() => {
    const r = result.value;
    if (!r) return false;
    return r.total === null ? r.complete && r.rows.length === r.limit : r.offset + r.rows.length < r.total;
  });
  const countText = computed(() => {
    const r = result.value;
    if (!r) return '';
    const n = r.total ?? r.totalAtLeast;
    if (r.total === null) return r.totalAtLeast > 0 ? `More than ${formatNumber(r.totalAtLeast)} pages` : 'Pages not counted';
    return `${formatNumber(n)} ${n === 1 ? 'page' : 'pages'}`;
  });
  return { offset, hasNext, countText };
}

/** The Pages view of `props`: its search, its results and the inspected page, and what its controls do. */
export function usePageSearch(props: PagesProps) {
  const route = useRoute();
  const router = useRouter();
  const inspector = useInspectorStore();
  const pages = usePagesStore();
  /** The search in the address: what the results shown answer. */
  const search = computed(() => searchFromRoute(route.query));
  const draft = useDraftOfAddress(props, route, search);
  const inspecting = computed(() => !!props.id && !!props.url && inspector.crawlId === props.id);
  const searched = computed(() => !!props.id && !props.url && pages.crawlId === props.id);
  const result = computed(() => (searched.value ? pages.result : null));
  const go = (s: PageSearchQuery, open?: { url?: string; in?: number; out?: number }) => void router.push({ query: routeOfSearch(s, open) });
  /** A depth typed that is not one (the field is text: a number field's v-model hands over a number, or '' for junk). */
  const depthError = ref<string | null>(null);
  function submit() {
    const out = searchOfDraft(draft);
    depthError.value = 'depthError' in out ? out.depthError : null;
    if ('search' in out) go(out.search);
  }
  /** Opens a URL typed in (exactly as crawled, or as the crawler would write it). */
  function open() {
    const url = draft.open.trim();
    if (!url) return;
    if (url === props.url) void inspector.lookup(props.id!, url, { linkLimit: LINK_LIMIT, ...linkOffsets(route.query) });
    else go(search.value, { url });
  }
  const pageTo = (url: string): RouteLocationRaw => ({ query: routeOfSearch(search.value, { url }) });
  const controls = {
    submit,
    open,
    /** A new sort starts in its natural order: fetch order from the first fetch, the others largest first. */
    sortChanged: () => {
      draft.descending = draft.sort !== 'fetch';
    },
    clear: () => go({}),
    linksPage: (which: 'in' | 'out', offset: number) => {
      const now = linkOffsets(route.query);
      go(search.value, { url: props.url, in: which === 'in' ? offset : now.inOffset, out: which === 'out' ? offset : now.outOffset });
    },
    resultsPage: (offset: number) => go({ ...search.value, offset }),
    openRow: (url: string) => void router.push(pageTo(url)),
  };
  const backTo = computed((): RouteLocationRaw => ({ query: routeOfSearch(search.value) }));
  return { draft, depthError, inspecting, searched, result, pageTo, backTo, ...controls, ...useResultFacts(result) };
}
