public class Assigned {
  public static void main(String[] a) {
    StringBuilder out = new StringBuilder();
    int start = -1; int n = 0;
    for (int cp = 0; cp <= 0x110000; cp++) {
      boolean assigned = cp <= 0x10FFFF && Character.getType(cp) != Character.UNASSIGNED;
      if (assigned && start < 0) start = cp;
      if (!assigned && start >= 0) { out.append(String.format("0x%x,0x%x,", start, cp - 1)); start = -1; n++; }
    }
    System.out.println(n);
    System.out.println(out);
  }
}
