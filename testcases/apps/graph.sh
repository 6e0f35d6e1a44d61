# testcases/apps/graph.sh - what the scripts that write the applications' task graphs
# (make_graph.sh, make_sdf.sh) share, sourced by them: the head of a tgc-graph/1
# document and its edges, written as the graphs of this folder are.

# graph_head NAME ITERATIONS PLATFORM APP COMMENT: the document up to its first task;
# the kernels are $kdir/APP_kernels.c and .h.
graph_head() {
    cat <<HEAD
{
  "format": "tgc-graph/1",
  "name": "$1",
  "iterations": $2,
  "platform": "$3",
  "kernels": { "source": "$kdir/$4_kernels.c", "header": "$kdir/$4_kernels.h" },
  "x-comment": "$5",
  "tasks": [
HEAD
}

# edges_begin: after the last task, the end of the tasks and the beginning of the edges.
edges_begin() {
    echo '  ],'
    echo '  "edges": ['
    graph_edge=""
}

# edge FROM TO BYTES [FIELDS]: an edge (FIELDS: its other fields, ', "consume": 2').
# Each edge is written when the next one comes, with a comma; the last by edges_end.
edge() {
    [ -z "$graph_edge" ] || echo "$graph_edge,"
    graph_edge="    { \"from\": \"$1\", \"to\": \"$2\", \"bytes\": $3${4:-} }"
}

# edges_end: the last edge and the end of the document.
edges_end() {
    [ -z "$graph_edge" ] || echo "$graph_edge"
    echo '  ]'
    echo '}'
}
