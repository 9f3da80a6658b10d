package walk

import "syscall"

const sysFstatat = syscall.SYS_FSTATAT
