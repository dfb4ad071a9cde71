package play

import (
	"strings"

	"github.com/mtibben/confusables"
)

// confusable reports whether two player names can be mistaken for each
// other on screen: their Unicode UTS #39 skeletons are equal as written or
// once lower-cased (Cyrillic "Аlma" beside Latin "Alma", "I" beside "l",
// "rn" beside "m").
func confusable(a, b string) bool {
	if confusables.Skeleton(a) == confusables.Skeleton(b) {
		return true
	}
	return confusables.Skeleton(strings.ToLower(a)) == confusables.Skeleton(strings.ToLower(b))
}
