// @oh-my-pi/pi-natives/vcs: the real package's, unchanged.
export * from "@oh-my-pi/pi-natives-real/vcs";
