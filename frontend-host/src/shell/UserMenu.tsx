import { useEffect, useRef, useState } from 'react';
import type { User } from '../api';

/** The logged-in user's name in the top bar, opening a menu with the way out. */
export function UserMenu({ user, onLogout }: { user: User; onLogout(): void }) {
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);

  // A click anywhere else closes the menu, as people expect from a dropdown.
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  return (
    <div className="user-menu" ref={menu}>
      <button type="button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        {user.attrib?.fullName || user.name}
      </button>
      {open && (
        <div className="menu" role="menu">
          <div className="muted menu-item">
            {user.name}
            {user.data?.isAdmin ? ' · administrator' : ''}
          </div>
          <button type="button" role="menuitem" className="menu-item" onClick={onLogout}>
            Log out
          </button>
        </div>
      )}
    </div>
  );
}
