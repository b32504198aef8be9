package play

import (
	"github.com/bashni/bashni/rating"
	"github.com/bashni/bashni/storage"
)

// Games are rated with Glicko-2 (package rating), each rated game a
// rating period of its own, as lichess rates them. Records from before
// kept an Elo number and no deviation (RD 0); such a number is carried
// over once, as rating.FromElo says: every reader sees it carried
// (UserRating, LineRating), and the record's first write after the change
// stores it so (carryElo: the user's next Touch or count, a line's next
// count). That write is the migration: a compare-and-set of the one
// record, the same whoever makes it and however often (a carried record
// has its RD), so two replicas, or a crash between two records, change
// nothing; and nothing walks the whole store at start.

// UserRating is u's global Glicko-2 rating, an Elo one carried over.
func UserRating(u *storage.User) rating.Rating {
	return stored(u.Rating, u.RD, u.Vol)
}

// LineRating is a leaderboard line's Glicko-2 rating, an Elo one carried
// over.
func LineRating(st storage.Standing) rating.Rating {
	return stored(st.Rating, st.RD, st.Vol)
}

func stored(r, rd, vol float64) rating.Rating {
	if rd == 0 {
		return rating.FromElo(r, StartRating)
	}
	return rating.Rating{R: r, RD: rd, Vol: vol}
}

// carryElo stores u's Elo rating carried over, if it is one, and reports
// whether it did.
func carryElo(u *storage.User) bool {
	if u.RD != 0 {
		return false
	}
	setUserRating(u, UserRating(u))
	return true
}

func setUserRating(u *storage.User, r rating.Rating) {
	u.Rating, u.RD, u.Vol = r.R, r.RD, r.Vol
}

func setLineRating(st *storage.Standing, r rating.Rating) {
	st.Rating, st.RD, st.Vol = r.R, r.RD, r.Vol
}
