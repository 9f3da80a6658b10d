export default function registerTools(pi) {}
