package netplay

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
)

// Transport sends and receives datagrams for a Session: UDP over a socket,
// MemNet's in-memory links in tests, or a SimTransport that degrades
// another. Its methods are called from the goroutine that runs the
// session, and must not allocate in steady state.
type Transport interface {
	// ReadFrom copies the next waiting datagram into b and returns its
	// length and sender, without blocking; ok is false when none waits.
	// A datagram longer than b is dropped, not truncated.
	ReadFrom(b []byte) (n int, from netip.AddrPort, ok bool)
	// WriteTo sends b to the address. A datagram lost on the way is no
	// error; an error means the transport cannot send at all.
	WriteTo(b []byte, to netip.AddrPort) error
}

// queueLen is how many datagrams a MemConn or UDP transport holds before
// it drops new ones, between two reads of its role (a frame): two ticks
// of a state's slices at a server's fastest (chunksPerTick), with room
// for the rest, and a bound on what a flood can make it keep.
const queueLen = 512

// maxReads bounds the datagrams one poll of a role reads, so a flood
// cannot hold up a frame: twice what the transports queue.
const maxReads = 2 * queueLen

// datagramQueue is a bounded ring of datagrams, preallocated.
type datagramQueue struct {
	buf     [queueLen][MaxPacket]byte
	lens    [queueLen]int
	from    [queueLen]netip.AddrPort
	head, n int
}

// push copies b in, or reports false when the queue is full.
func (q *datagramQueue) push(b []byte, from netip.AddrPort) bool {
	if q.n == queueLen || len(b) > MaxPacket {
		return false
	}
	i := (q.head + q.n) % queueLen
	q.lens[i] = copy(q.buf[i][:], b)
	q.from[i] = from
	q.n++
	return true
}

// pop copies the oldest datagram into b. One longer than b is dropped.
func (q *datagramQueue) pop(b []byte) (int, netip.AddrPort, bool) {
	for q.n > 0 {
		i := q.head
		q.head = (q.head + 1) % queueLen
		q.n--
		if q.lens[i] <= len(b) {
			return copy(b, q.buf[i][:q.lens[i]]), q.from[i], true
		}
	}
	return 0, netip.AddrPort{}, false
}

// MemNet is an in-memory network for tests: each MemConn it makes has an
// address, and a datagram written to an address lands, whole and at once,
// in that MemConn's queue. Datagrams to an address no MemConn has are
// lost. Put a SimTransport over a MemConn to add latency and loss. It is
// safe for concurrent use.
type MemNet struct {
	mu    sync.Mutex
	conns []*MemConn
}

// NewMemNet returns an empty in-memory network.
func NewMemNet() *MemNet { return &MemNet{} }

// Listen returns the network's MemConn at addr, creating it the first time.
func (m *MemNet) Listen(addr netip.AddrPort) *MemConn {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range m.conns {
		if c.addr == addr {
			return c
		}
	}
	c := &MemConn{net: m, addr: addr}
	m.conns = append(m.conns, c)
	return c
}

// MemConn is one address of a MemNet: a Transport.
type MemConn struct {
	net     *MemNet
	addr    netip.AddrPort
	q       datagramQueue // guarded by net.mu
	dropped uint64        // datagrams lost to a full queue, guarded by net.mu
}

// Addr returns the connection's address.
func (c *MemConn) Addr() netip.AddrPort { return c.addr }

// ReadFrom returns the oldest waiting datagram.
func (c *MemConn) ReadFrom(b []byte) (int, netip.AddrPort, bool) {
	c.net.mu.Lock()
	defer c.net.mu.Unlock()
	return c.q.pop(b)
}

// WriteTo delivers b to the MemConn at to, if any; a full queue drops it.
func (c *MemConn) WriteTo(b []byte, to netip.AddrPort) error {
	c.net.mu.Lock()
	defer c.net.mu.Unlock()
	for _, d := range c.net.conns {
		if d.addr == to {
			if !d.q.push(b, c.addr) {
				d.dropped++
			}
			break
		}
	}
	return nil
}

// Dropped returns how many datagrams to c were lost to a full queue.
func (c *MemConn) Dropped() uint64 {
	c.net.mu.Lock()
	defer c.net.mu.Unlock()
	return c.dropped
}

// UDP is a Transport over a UDP socket. A goroutine of its own blocks in
// ReadFromUDPAddrPort and queues what arrives (at most 512 datagrams; more
// are dropped and counted), so ReadFrom never blocks and never allocates:
// polling the socket with a past deadline would allocate an error on every
// empty poll. Make it with NewUDP; Close it.
type UDP struct {
	conn *net.UDPConn
	mu   sync.Mutex
	q    datagramQueue // guarded by mu
	rbuf [MaxPacket + 1]byte

	dropped atomic.Uint64 // queue full, or longer than MaxPacket
	done    chan struct{}
	close   sync.Once
	err     error
}

// NewUDP starts reading conn and returns the transport. The transport owns
// conn from now on: Close closes it.
func NewUDP(conn *net.UDPConn) *UDP {
	u := &UDP{conn: conn, done: make(chan struct{})}
	go u.read()
	return u
}

// ListenUDP opens a UDP socket at addr ("127.0.0.1:0" picks a free port)
// and returns its transport.
func ListenUDP(addr string) (*UDP, error) {
	a, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("netplay: listen %s: %w", addr, err)
	}
	conn, err := net.ListenUDP("udp", a)
	if err != nil {
		return nil, fmt.Errorf("netplay: listen %s: %w", addr, err)
	}
	return NewUDP(conn), nil
}

// read is the reader goroutine.
func (u *UDP) read() {
	defer close(u.done)
	for {
		n, from, err := u.conn.ReadFromUDPAddrPort(u.rbuf[:])
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// An ICMP error reported on the socket, or a datagram cut
			// short: nothing to queue.
			u.dropped.Add(1)
			continue
		}
		if n > MaxPacket {
			u.dropped.Add(1)
			continue
		}
		from = netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
		u.mu.Lock()
		ok := u.q.push(u.rbuf[:n], from)
		u.mu.Unlock()
		if !ok {
			u.dropped.Add(1)
		}
	}
}

// ReadFrom returns the oldest datagram the reader queued.
func (u *UDP) ReadFrom(b []byte) (int, netip.AddrPort, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.q.pop(b)
}

// WriteTo sends b to the address.
func (u *UDP) WriteTo(b []byte, to netip.AddrPort) error {
	_, err := u.conn.WriteToUDPAddrPort(b, to)
	return err
}

// Addr returns the socket's local address.
func (u *UDP) Addr() netip.AddrPort {
	a := u.conn.LocalAddr().(*net.UDPAddr).AddrPort()
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// Dropped returns how many datagrams the transport dropped: more than its
// queue holds, longer than MaxPacket, or read errors.
func (u *UDP) Dropped() uint64 { return u.dropped.Load() }

// Close closes the socket and waits for the reader to end. It is
// idempotent.
func (u *UDP) Close() error {
	u.close.Do(func() {
		u.err = u.conn.Close()
		<-u.done
	})
	return u.err
}
