Pod::Spec.new do |s|
  s.name = 'Payments'
  s.dependency 'Core' # pinned by modkit, 'quotes' "too"
  s.dependency 'Net'# no space
end
