package main

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/bashni/bashni/bot/telegram/outbox"
)

// The outbox's lanes, one a chat with replies waiting, are watched without
// naming chats: a series a chat would grow the metrics with every chat the
// bot ever wrote to. What an operator needs is whether any chat nears its
// bound, how many are at it (refusing work), and how much waits in all;
// which chat it is, the logs and the refusal counter's moments tell.
func (m *metrics) watchLanes(ob *outbox.Outbox) {
	deepest := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "bashni_outbox_lane_depth_max", Help: "Replies waiting in the deepest chat lane of the outbox (the bound is outbox.Options.MaxQueue).",
	}, func() float64 {
		if d := ob.Depths(); len(d) > 0 {
			return float64(d[0])
		}
		return 0
	})
	full := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "bashni_outbox_lanes_full", Help: "Chat lanes at their bound: work for those chats is refused at the door.",
	}, func() float64 {
		n := 0
		for _, d := range ob.Depths() {
			if d >= ob.MaxQueue() {
				n++
			}
		}
		return float64(n)
	})
	waiting := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "bashni_outbox_waiting", Help: "Replies waiting in all chat lanes of the outbox.",
	}, func() float64 {
		n := 0
		for _, d := range ob.Depths() {
			n += d
		}
		return float64(n)
	})
	m.reg.MustRegister(deepest, full, waiting)
}

// onRefused counts a refusal for want of room (outbox.Options.OnRefused).
func (m *metrics) onRefused(reason string) { m.outboxRefused.WithLabelValues(reason).Inc() }
