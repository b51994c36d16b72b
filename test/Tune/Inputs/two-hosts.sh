#!/bin/bash
# two-hosts.sh COMMAND ARGS...
#
# Run COMMAND under OpenMPI (tested with Debian 12's OpenMPI 4.1.4) as 2 ranks
# on two fake "hosts": network namespaces pd-a-$$ and pd-b-$$ joined by a veth
# pair (10.231.X.1/24 <-> 10.231.X.2/24, X = $$ % 250 + 1).  mpirun runs in
# namespace A; the remote orted is started in namespace B by a generated rsh
# agent (ip netns exec).  Each "host" also gets its own UTS namespace with
# hostname = namespace name, so MPI_Get_processor_name differs per rank.
# OpenMPI uses TCP only (btl tcp,self; oob+btl restricted to the veth subnet).
#
# Extra mpirun options may be put before COMMAND (they are appended after ours),
# e.g.  two-hosts.sh -x FOO=1 ./prog arg
#
# Exit status: mpirun's exit status; 77 (one-line reason on stderr) if the
# namespaces/veth cannot be set up (not root, no ip, ip netns add fails, ...)
# or mpirun is missing; 2 on usage error; 128+N if killed by signal N.
# Set TWO_HOSTS_VERBOSE=1 to print the setup and the agent's commands to stderr.
# Requirements: root, iproute2, util-linux (unshare), mpirun in PATH.

set -u
ME=two-hosts.sh
if [ $# -lt 1 ]; then
    echo "usage: $ME COMMAND ARGS..." >&2
    exit 2
fi

ID=$$
# A stale namespace from a dead run with the same pid (or a run in another pid
# namespace) must not make us fail or, worse, delete somebody else's namespace.
if [ -e /run/netns/pd-a-$ID ] || [ -e /run/netns/pd-b-$ID ]; then
    ID=$$-$RANDOM
fi
NSA=pd-a-$ID
NSB=pd-b-$ID
X=$(( $$ % 250 + 1 ))
SUB=10.231.$X
IPA=$SUB.1
IPB=$SUB.2
TMPD=""
CREATED=""
VERBOSE=${TWO_HOSTS_VERBOSE:-0}

log() { [ "$VERBOSE" = 1 ] && echo "$ME: $*" >&2; return 0; }

ns_pids() { local ns; for ns in $CREATED; do ip netns pids "$ns" 2>/dev/null; done; }

cleanup() {
    trap - EXIT INT TERM HUP
    local pids i ns
    # Whatever still runs in the namespaces (mpirun, agent shells, orted,
    # ranks; only after a signal or a launch failure) gets SIGTERM, up to 3 s,
    # then SIGKILL: a live process would keep its netns (and the veth) alive.
    pids=$(ns_pids)
    if [ -n "$pids" ]; then
        kill -TERM $pids 2>/dev/null
        for i in $(seq 30); do
            pids=$(ns_pids)
            [ -z "$pids" ] && break
            sleep 0.1
        done
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
    fi
    for ns in $CREATED; do
        ip netns del "$ns" 2>/dev/null    # also destroys the veth pair
    done
    [ -n "$TMPD" ] && rm -rf "$TMPD"
}
on_signal() {
    echo "$ME: caught SIG$1, cleaning up" >&2
    exec 2>/dev/null    # silence bash's "Terminated" job notice for mpirun
    exit "$2"
}
trap cleanup EXIT
trap 'on_signal HUP 129' HUP
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM

skip() {
    local msg="$*"
    echo "$ME: SKIP: ${msg//$'\n'/ }" >&2
    exit 77
}

[ "$(id -u)" = 0 ] || skip "not root (network namespaces need root)"
command -v ip >/dev/null 2>&1 || skip "'ip' (iproute2) not found"
command -v mpirun >/dev/null 2>&1 || skip "mpirun not found"
UTS=1
unshare --uts true >/dev/null 2>&1 || UTS=0   # optional: distinct hostnames

err=$(ip netns add "$NSA" 2>&1) || skip "ip netns add $NSA failed: $err"
CREATED=$NSA
err=$(ip netns add "$NSB" 2>&1) || skip "ip netns add $NSB failed: $err"
CREATED="$NSA $NSB"
# Create the veth pair with its ends directly inside the namespaces: no
# interface ever appears in the root namespace, and names cannot clash.
err=$(ip link add veth-a netns "$NSA" type veth peer name veth-b netns "$NSB" 2>&1) ||
    skip "cannot create veth pair: $err"
err=$( { ip -n "$NSA" addr add "$IPA/24" dev veth-a &&
         ip -n "$NSB" addr add "$IPB/24" dev veth-b &&
         ip -n "$NSA" link set lo up && ip -n "$NSA" link set veth-a up &&
         ip -n "$NSB" link set lo up && ip -n "$NSB" link set veth-b up; } 2>&1) ||
    skip "cannot configure veth/lo: $err"

# Holds the agent and OpenMPI's session directory (orte_tmpdir_base), so that
# nothing is left behind in /tmp even if a daemon had to be killed.  Must be
# visible in both namespaces (ip netns exec keeps /tmp).
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/two-hosts.XXXXXX") || skip "mktemp failed"
chmod 755 "$TMPD"

# rsh agent: OpenMPI calls it as "agent [opts] HOST CMD..." where CMD is a
# shell command line (as ssh would get it).  Map HOST -> namespace and run CMD
# there, in a fresh UTS namespace whose hostname is the namespace name.
cat > "$TMPD/agent.sh" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do case "\$1" in -*) shift ;; *) break ;; esac; done
host=\$1; shift
case "\$host" in
    $IPA|$NSA) ns=$NSA ;;
    $IPB|$NSB) ns=$NSB ;;
    *) echo "$ME agent: unknown host '\$host'" >&2; exit 255 ;;
esac
[ "$VERBOSE" = 1 ] && echo "$ME agent: [\$host -> \$ns] \$*" >&2
if [ "$UTS" = 1 ]; then
    exec ip netns exec "\$ns" unshare --uts /bin/sh -c "hostname \$ns || exit 255; \$*"
else
    exec ip netns exec "\$ns" /bin/sh -c "\$*"
fi
EOF
chmod 755 "$TMPD/agent.sh"

if [ "$UTS" = 1 ]; then
    RUN_A=(ip netns exec "$NSA" unshare --uts /bin/sh -c 'hostname "$0" && exec "$@"' "$NSA")
else
    RUN_A=(ip netns exec "$NSA")
fi

log "A: $NSA $IPA netns=$(ip netns exec "$NSA" readlink /proc/self/ns/net)"
log "B: $NSB $IPB netns=$(ip netns exec "$NSB" readlink /proc/self/ns/net)"
log "uts=$UTS tmpdir=$TMPD"

# Background + wait so that signals to this script are handled at once.
# (Explicit <&0: a background job would otherwise get /dev/null as stdin.)
"${RUN_A[@]}" mpirun \
    --allow-run-as-root --oversubscribe \
    -np 2 --host "$IPA:1,$IPB:1" \
    --mca plm_rsh_agent "$TMPD/agent.sh" \
    --mca orte_tmpdir_base "$TMPD" \
    --mca btl tcp,self \
    --mca btl_tcp_if_include "$SUB.0/24" \
    --mca oob_tcp_if_include "$SUB.0/24" \
    "$@" <&0 &
wait $!
exit $?
