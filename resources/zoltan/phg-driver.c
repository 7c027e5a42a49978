/*
 * crawlbench-phg: partitions a hypergraph file in hMETIS format with Zoltan's parallel
 * hypergraph partitioner PHG, in one MPI process, and writes the part of each vertex.
 * crawlbench's own driver (MIT, like the rest of crawlbench), compiled against Debian's
 * libtrilinos-zoltan-dev by resources/zoltan/build.sh and run by core/graph/tools.ts.
 *
 *   crawlbench-phg HGR_FILE K SEED PART_FILE
 *
 * HGR_FILE   hMETIS: a first line "NETS VERTICES [FMT]" (FMT 0 or absent: no weights, 1: a
 *            cost first on each net line, 10: a weight per vertex after the nets, 11: both),
 *            then one line of 1-based pins per net, then (FMT 10, 11) one line per vertex with
 *            its weight; lines starting with % are comments. crawlbench's export-graph writes
 *            FMT 10 (vertex weight = size; every net costs 1).
 * K          number of parts, 2 .. VERTICES.
 * SEED       a number 0 .. 4294967295 for Zoltan's random number generator.
 * PART_FILE  written with one line per vertex, in vertex order: its part, 0 .. K-1 (the part
 *            files of KaHyPar and hMETIS).
 *
 * Zoltan's parameters:
 *   LB_METHOD=HYPERGRAPH, HYPERGRAPH_PACKAGE=PHG, LB_APPROACH=PARTITION (from scratch)
 *   PHG_CUT_OBJECTIVE=CONNECTIVITY   the sum over nets of cost * (parts the net spans - 1)
 *   IMBALANCE_TOL=1.05               the heaviest part at most 5% above the average
 *   NUM_GLOBAL_PARTS=K, OBJ_WEIGHT_DIM and EDGE_WEIGHT_DIM 1 when the file has those weights
 *   PHG_EDGE_SIZE_THRESHOLD=1.0      no net is left out as too large (PHG's default drops
 *                                    nets with more than a quarter of the vertices as pins,
 *                                    which the connectivity-1 count would still pay for)
 *   RETURN_LISTS=PARTS               the part of every vertex, not only of those that move
 *   SEED=SEED                        Zoltan's general parameter for its random number
 *                                    generator: setting it calls Zoltan_Srand(SEED), the
 *                                    generator PHG's matchings and initial partitions draw from
 *                                    (Debian's headers declare no Zoltan_Srand; the parameter
 *                                    is its public way in)
 *
 * On success it prints one line on stdout: "K=.. seed=..: connectivity-1 C, imbalance I%,
 * S s" (C counted over every net with its cost, I on the vertex weights of the file). Bad
 * input or arguments: one line on stderr naming the problem, exit 2; Zoltan failing: exit 1.
 *
 * Run without mpirun it starts as an MPI singleton; Open MPI refuses to run as root unless
 * OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 are set, which tools.ts does
 * in the child's environment, with the settings that keep Open MPI from probing the network.
 */
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zoltan.h>

#define USAGE "usage: crawlbench-phg HGR_FILE K SEED PART_FILE  (hMETIS file in; one part 0..K-1 per vertex out)"

struct hypergraph {
  int nets;
  int vertices;
  int net_costs;     /* the file gives a cost per net */
  int vertex_weights; /* the file gives a weight per vertex */
  int *net_start;    /* nets + 1 offsets into pins */
  ZOLTAN_ID_TYPE *pins; /* 0-based vertex ids */
  float *net_cost;   /* nets, or NULL */
  float *vertex_weight; /* vertices, or NULL */
};

static void fail(int status, const char *fmt, ...) {
  va_list ap;
  fputs("crawlbench-phg: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  /* MPI_Finalize is not needed to exit; MPI_Abort would print Open MPI's own banner. */
  exit(status);
}

static void *grow(void *p, size_t count, size_t size) {
  if (count != 0 && size > SIZE_MAX / count) fail(1, "out of memory");
  void *q = realloc(p, count * size);
  if (q == NULL && count != 0) fail(1, "out of memory");
  return q;
}

/* A non-negative decimal integer from *s; advances *s; returns 0 when none is there or it overflows. */
static int read_number(const char **s, unsigned long long max, unsigned long long *out) {
  const char *p = *s;
  while (*p == ' ' || *p == '\t') p++;
  if (*p < '0' || *p > '9') return 0;
  unsigned long long v = 0;
  while (*p >= '0' && *p <= '9') {
    v = v * 10 + (unsigned)(*p - '0');
    if (v > max) return 0;
    p++;
  }
  if (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') return 0;
  *s = p;
  *out = v;
  return 1;
}

static int at_end(const char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
  return *s == '\0';
}

/* The next line that is not a comment, or NULL at the end of the file; counts lines in *line_no. */
static const char *next_line(FILE *f, char **buf, size_t *cap, long *line_no) {
  for (;;) {
    errno = 0;
    ssize_t len = getline(buf, cap, f);
    if (len < 0) {
      if (errno != 0) fail(2, "cannot read the file (%s)", strerror(errno));
      return NULL;
    }
    (*line_no)++;
    if ((*buf)[0] != '%') return *buf;
  }
}

static void read_hmetis(const char *path, struct hypergraph *h) {
  FILE *f = fopen(path, "r");
  if (f == NULL) fail(2, "cannot open %s (%s)", path, strerror(errno));
  char *buf = NULL;
  size_t cap = 0;
  long line_no = 0;
  const char *s = next_line(f, &buf, &cap, &line_no);
  if (s == NULL) fail(2, "%s is empty: an hMETIS file starts with a line \"NETS VERTICES [FMT]\"", path);
  unsigned long long nets, vertices, fmt = 0;
  if (!read_number(&s, INT_MAX, &nets) || !read_number(&s, INT_MAX, &vertices))
    fail(2, "%s line %ld: not an hMETIS header \"NETS VERTICES [FMT]\" (two numbers below 2^31 first)", path, line_no);
  if (!at_end(s) && (!read_number(&s, 11, &fmt) || !at_end(s) || (fmt != 0 && fmt != 1 && fmt != 10 && fmt != 11)))
    fail(2, "%s line %ld: FMT must be 0, 1, 10 or 11", path, line_no);
  if (vertices == 0) fail(2, "%s line %ld: the hypergraph has no vertices", path, line_no);
  h->nets = (int)nets;
  h->vertices = (int)vertices;
  h->net_costs = fmt == 1 || fmt == 11;
  h->vertex_weights = fmt == 10 || fmt == 11;
  h->net_start = grow(NULL, (size_t)nets + 1, sizeof(int));
  h->net_cost = h->net_costs ? grow(NULL, nets ? nets : 1, sizeof(float)) : NULL;
  h->vertex_weight = h->vertex_weights ? grow(NULL, vertices, sizeof(float)) : NULL;
  size_t pins_cap = nets * 4 + 16;
  size_t pins = 0;
  h->pins = grow(NULL, pins_cap, sizeof(ZOLTAN_ID_TYPE));
  for (int e = 0; e < h->nets; e++) {
    s = next_line(f, &buf, &cap, &line_no);
    if (s == NULL) fail(2, "%s: the file ends after %d of its %d nets", path, e, h->nets);
    h->net_start[e] = (int)pins;
    unsigned long long v;
    if (h->net_costs) {
      if (!read_number(&s, 1u << 30, &v)) fail(2, "%s line %ld: net %d has no cost (a number first, FMT %llu)", path, line_no, e + 1, fmt);
      h->net_cost[e] = (float)v;
    }
    while (!at_end(s)) {
      if (!read_number(&s, vertices, &v) || v == 0)
        fail(2, "%s line %ld: net %d has a pin that is not a vertex 1..%llu", path, line_no, e + 1, vertices);
      if (pins == (size_t)INT_MAX) fail(2, "%s: more than 2^31 pins", path);
      if (pins == pins_cap) {
        pins_cap *= 2;
        h->pins = grow(h->pins, pins_cap, sizeof(ZOLTAN_ID_TYPE));
      }
      h->pins[pins++] = (ZOLTAN_ID_TYPE)(v - 1);
    }
    if ((int)pins == h->net_start[e]) fail(2, "%s line %ld: net %d has no pins", path, line_no, e + 1);
  }
  h->net_start[h->nets] = (int)pins;
  for (int v = 0; v < h->vertices && h->vertex_weights; v++) {
    s = next_line(f, &buf, &cap, &line_no);
    if (s == NULL) fail(2, "%s: the file ends after %d of its %d vertex weights (FMT %llu)", path, v, h->vertices, fmt);
    unsigned long long w;
    if (!read_number(&s, 1ULL << 40, &w) || !at_end(s)) fail(2, "%s line %ld: vertex %d's weight is not a number", path, line_no, v + 1);
    h->vertex_weight[v] = (float)w;
  }
  while ((s = next_line(f, &buf, &cap, &line_no)) != NULL)
    if (!at_end(s)) fail(2, "%s line %ld: more lines than the header's %d nets%s", path, line_no, h->nets, h->vertex_weights ? " and vertex weights" : "");
  free(buf);
  fclose(f);
}

/* Zoltan's query functions: all vertices and all nets are this process's. */

static int num_obj(void *data, int *ierr) {
  *ierr = ZOLTAN_OK;
  return ((struct hypergraph *)data)->vertices;
}

static void obj_list(void *data, int num_gid, int num_lid, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int wdim, float *wgts, int *ierr) {
  struct hypergraph *h = data;
  (void)num_gid;
  (void)num_lid;
  for (int v = 0; v < h->vertices; v++) {
    gids[v] = (ZOLTAN_ID_TYPE)v;
    lids[v] = (ZOLTAN_ID_TYPE)v;
    if (wdim == 1) wgts[v] = h->vertex_weight[v];
  }
  *ierr = ZOLTAN_OK;
}

static void hg_size(void *data, int *num_lists, int *num_pins, int *format, int *ierr) {
  struct hypergraph *h = data;
  *num_lists = h->nets;
  *num_pins = h->net_start[h->nets];
  *format = ZOLTAN_COMPRESSED_EDGE;
  *ierr = ZOLTAN_OK;
}

static void hg_pins(void *data, int num_gid, int nets, int npins, int format, ZOLTAN_ID_PTR net_gids, int *net_ptr, ZOLTAN_ID_PTR pin_gids, int *ierr) {
  struct hypergraph *h = data;
  (void)num_gid;
  if (format != ZOLTAN_COMPRESSED_EDGE || nets != h->nets || npins != h->net_start[h->nets]) {
    *ierr = ZOLTAN_FATAL;
    return;
  }
  for (int e = 0; e < nets; e++) {
    net_gids[e] = (ZOLTAN_ID_TYPE)e;
    net_ptr[e] = h->net_start[e];
  }
  memcpy(pin_gids, h->pins, (size_t)npins * sizeof(ZOLTAN_ID_TYPE));
  *ierr = ZOLTAN_OK;
}

static void hg_size_costs(void *data, int *num_edges, int *ierr) {
  struct hypergraph *h = data;
  *num_edges = h->net_costs ? h->nets : 0;
  *ierr = ZOLTAN_OK;
}

static void hg_costs(void *data, int num_gid, int num_lid, int nets, int dim, ZOLTAN_ID_PTR net_gids, ZOLTAN_ID_PTR net_lids, float *costs, int *ierr) {
  struct hypergraph *h = data;
  (void)num_gid;
  (void)num_lid;
  (void)net_lids;
  for (int i = 0; i < nets; i++) {
    for (int d = 0; d < dim; d++) costs[i * dim + d] = h->net_cost[net_gids[i]];
  }
  *ierr = ZOLTAN_OK;
}

static void set_param(struct Zoltan_Struct *zz, const char *name, const char *value) {
  if (Zoltan_Set_Param(zz, name, value) != ZOLTAN_OK) fail(1, "Zoltan does not take %s=%s", name, value);
}

static unsigned long long argument(const char *text, const char *what, unsigned long long min, unsigned long long max) {
  const char *s = text;
  unsigned long long v;
  if (!read_number(&s, max, &v) || !at_end(s) || v < min) fail(2, "%s \"%s\" is not a number in %llu..%llu; " USAGE, what, text, min, max);
  return v;
}

int main(int argc, char **argv) {
  if (argc != 5) fail(2, USAGE);
  unsigned long long k = argument(argv[2], "K", 2, INT_MAX);
  unsigned long long seed = argument(argv[3], "SEED", 0, UINT_MAX);
  struct hypergraph h;
  read_hmetis(argv[1], &h);
  if (k > (unsigned long long)h.vertices) fail(2, "K = %llu parts for %d vertices: at most %d", k, h.vertices, h.vertices);
  FILE *out = fopen(argv[4], "w");
  if (out == NULL) fail(2, "cannot write %s (%s)", argv[4], strerror(errno));

  double t0;
  float version;
  MPI_Init(&argc, &argv);
  t0 = MPI_Wtime();
  char *id_type = NULL;
  if (Zoltan_Initialize(argc, argv, &version) != ZOLTAN_OK) fail(1, "Zoltan_Initialize failed");
  if (Zoltan_get_global_id_type(&id_type) != (int)sizeof(ZOLTAN_ID_TYPE))
    fail(1, "this Zoltan library has global ids of type %s, not those of its header; rebuild crawlbench-phg", id_type ? id_type : "?");
  struct Zoltan_Struct *zz = Zoltan_Create(MPI_COMM_WORLD);
  if (zz == NULL) fail(1, "Zoltan_Create failed");

  char text[32];
  set_param(zz, "DEBUG_LEVEL", "0");
  set_param(zz, "LB_METHOD", "HYPERGRAPH");
  set_param(zz, "HYPERGRAPH_PACKAGE", "PHG");
  set_param(zz, "LB_APPROACH", "PARTITION");
  set_param(zz, "PHG_CUT_OBJECTIVE", "CONNECTIVITY");
  set_param(zz, "IMBALANCE_TOL", "1.05");
  snprintf(text, sizeof text, "%llu", k);
  set_param(zz, "NUM_GLOBAL_PARTS", text);
  set_param(zz, "NUM_GID_ENTRIES", "1");
  set_param(zz, "NUM_LID_ENTRIES", "1");
  set_param(zz, "OBJ_WEIGHT_DIM", h.vertex_weights ? "1" : "0");
  set_param(zz, "EDGE_WEIGHT_DIM", h.net_costs ? "1" : "0");
  set_param(zz, "PHG_EDGE_SIZE_THRESHOLD", "1.0");
  set_param(zz, "RETURN_LISTS", "PARTS");
  snprintf(text, sizeof text, "%llu", seed);
  set_param(zz, "SEED", text);

  Zoltan_Set_Num_Obj_Fn(zz, num_obj, &h);
  Zoltan_Set_Obj_List_Fn(zz, obj_list, &h);
  Zoltan_Set_HG_Size_CS_Fn(zz, hg_size, &h);
  Zoltan_Set_HG_CS_Fn(zz, hg_pins, &h);
  if (h.net_costs) {
    Zoltan_Set_HG_Size_Edge_Wts_Fn(zz, hg_size_costs, &h);
    Zoltan_Set_HG_Edge_Wts_Fn(zz, hg_costs, &h);
  }

  int changes, num_gid, num_lid, num_import, num_export;
  ZOLTAN_ID_PTR import_gids, import_lids, export_gids, export_lids;
  int *import_procs, *import_parts, *export_procs, *export_parts;
  int rc = Zoltan_LB_Partition(zz, &changes, &num_gid, &num_lid, &num_import, &import_gids, &import_lids, &import_procs, &import_parts,
                               &num_export, &export_gids, &export_lids, &export_procs, &export_parts);
  if (rc == ZOLTAN_FATAL || rc == ZOLTAN_MEMERR) fail(1, "Zoltan_LB_Partition failed (status %d)", rc);

  /* RETURN_LISTS=PARTS: the export lists name every vertex with its part. */
  int *part = grow(NULL, (size_t)h.vertices, sizeof(int));
  for (int v = 0; v < h.vertices; v++) part[v] = -1;
  for (int i = 0; i < num_export; i++) {
    ZOLTAN_ID_TYPE v = export_gids[i];
    if (v >= (ZOLTAN_ID_TYPE)h.vertices || export_parts[i] < 0 || (unsigned long long)export_parts[i] >= k)
      fail(1, "Zoltan returned vertex " ZOLTAN_ID_SPEC " in part %d, outside the %d vertices or 0..%llu", v, export_parts[i], h.vertices, k - 1);
    part[v] = export_parts[i];
  }
  for (int v = 0; v < h.vertices; v++)
    if (part[v] < 0) fail(1, "Zoltan returned no part for vertex %d", v + 1);
  Zoltan_LB_Free_Part(&import_gids, &import_lids, &import_procs, &import_parts);
  Zoltan_LB_Free_Part(&export_gids, &export_lids, &export_procs, &export_parts);
  Zoltan_Destroy(&zz);
  double seconds = MPI_Wtime() - t0;

  for (int v = 0; v < h.vertices; v++) fprintf(out, "%d\n", part[v]);
  if (fclose(out) != 0) fail(2, "cannot write %s (%s)", argv[4], strerror(errno));

  /* What came out, measured apart from Zoltan: connectivity - 1 and the weight imbalance. */
  double km1 = 0;
  int *seen = grow(NULL, (size_t)k, sizeof(int));
  for (unsigned long long p = 0; p < k; p++) seen[p] = -1;
  for (int e = 0; e < h.nets; e++) {
    int spans = 0;
    for (int i = h.net_start[e]; i < h.net_start[e + 1]; i++) {
      int p = part[h.pins[i]];
      if (seen[p] != e) {
        seen[p] = e;
        spans++;
      }
    }
    km1 += (double)(spans - 1) * (h.net_costs ? h.net_cost[e] : 1.0);
  }
  double *load = grow(NULL, (size_t)k, sizeof(double));
  double total = 0, heaviest = 0;
  for (unsigned long long p = 0; p < k; p++) load[p] = 0;
  for (int v = 0; v < h.vertices; v++) {
    double w = h.vertex_weights ? h.vertex_weight[v] : 1.0;
    load[part[v]] += w;
    total += w;
  }
  for (unsigned long long p = 0; p < k; p++)
    if (load[p] > heaviest) heaviest = load[p];
  double average = total / (double)k;
  printf("K=%llu seed=%llu: connectivity-1 %.0f, imbalance %.3f%%, %.2f s\n", k, seed, km1, average > 0 ? (heaviest - average) / average * 100 : 0, seconds);
  MPI_Finalize();
  return 0;
}
