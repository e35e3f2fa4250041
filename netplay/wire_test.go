package netplay

// The encoders of every kind, for the decoders' fuzz tests' round trips:
// what decodes encodes back to the same bytes.

// encode appends p in its kind's layout, inputs included: the fuzz test's
// round trip.
func (p *packet) encode(dst []byte) []byte {
	switch p.kind {
	case kindHello:
		return p.appendHello(dst)
	case kindRefuse:
		dst = appendRefuse(dst, p.field, p.ours, p.theirs)
		dst[2] = p.version
		return dst
	case kindInput:
		return append(p.appendInputHead(dst), p.inputs...)
	case kindBye:
		return appendBye(dst, p.token, p.reason, p.tick, p.hash)
	case kindSit:
		return p.appendSit(dst)
	case kindSeat:
		return p.appendSeat(dst)
	case kindOffer:
		return appendOffer(dst, p.token, p.state, int(p.length), p.hash)
	case kindGot:
		return appendGot(dst, p.token, p.state, p.have, p.mask)
	case kindChunk:
		dst = appendHeader(dst, kindChunk, p.token)
		dst = le.AppendUint32(dst, p.state)
		dst = le.AppendUint32(dst, p.index)
		dst = le.AppendUint32(dst, p.length)
		return append(dst, p.data...)
	}
	return dst
}

// encode appends p in its kind's layout: the fuzz test's round trip.
func (p *sPacket) encode(dst []byte) []byte {
	switch p.kind {
	case kindJoin:
		return p.appendJoin(dst)
	case kindCookie:
		return appendCookie(dst, p.token, p.cookie, p.players)
	case kindWelcome:
		return p.appendWelcome(dst)
	case kindChunk:
		dst = appendHeader(dst, kindChunk, p.token)
		dst = le.AppendUint32(dst, p.state)
		dst = le.AppendUint32(dst, p.index)
		dst = le.AppendUint32(dst, p.size)
		return append(dst, p.data...)
	case kindUpdate:
		return append(p.appendUpdateHead(dst), p.inputs...)
	case kindFinal:
		return append(p.appendFinalHead(dst), p.inputs...)
	}
	return dst
}
